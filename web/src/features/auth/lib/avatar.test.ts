import { describe, expect, it } from 'vitest';
import { avatarImages, identiconDataUrl, initialsOf } from './avatar';

describe('avatar fallback chain', () => {
  it('tries the picture, then an image generated from the e-mail', () => {
    const generated = identiconDataUrl('ada@example.com');
    expect(generated).toMatch(/^data:image\/svg\+xml,/);
    expect(avatarImages('https://cdn.example.com/ada.png', 'ada@example.com')).toEqual([
      'https://cdn.example.com/ada.png',
      generated,
    ]);
    expect(avatarImages(null, 'ada@example.com')).toEqual([generated]);
    expect(avatarImages(null, null)).toEqual([]);
  });

  it('generates the same image for the same e-mail, whatever its case', () => {
    expect(identiconDataUrl(' Ada@Example.com')).toBe(identiconDataUrl('ada@example.com'));
    expect(identiconDataUrl('bob@example.com')).not.toBe(identiconDataUrl('ada@example.com'));
  });

  it('falls back to upper-case initials, then ?', () => {
    expect(initialsOf('ada obi')).toBe('AO');
    expect(initialsOf('Ada')).toBe('AD');
    expect(initialsOf('  ')).toBe('?');
    expect(initialsOf(null)).toBe('?');
  });
});
