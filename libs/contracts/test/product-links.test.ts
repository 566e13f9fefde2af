import { describe, expect, it } from 'vitest';
import {
  parseProductSlugId,
  productPath,
  productSlug,
  shortIdOf,
  shortIdRange,
} from '../src/index.js';

describe('readable product addresses', () => {
  it('slugs a title: lowercase ASCII, accents transliterated, at most 60 characters', () => {
    expect(productSlug('Café Crème — Recipes & Tips!')).toBe('cafe-creme-recipes-and-tips');
    expect(productSlug('Straße Øre Łódź Ọjọ́ Àṣẹ')).toBe('strasse-ore-lodz-ojo-ase');
    expect(productSlug('🔥🔥')).toBe('product');
    const long = productSlug('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long.endsWith('word')).toBe(true);
  });

  it('gives every uuid an 11-character short id whose range holds that uuid', () => {
    for (const id of [
      '00000000-0000-4000-8000-000000000000',
      'ffffffff-ffff-4fff-bfff-ffffffffffff',
      '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b',
    ]) {
      const shortId = shortIdOf(id);
      expect(shortId).toMatch(/^[0-9A-Za-z]{11}$/);
      const range = shortIdRange(shortId)!;
      expect(range.from <= id && id <= range.to).toBe(true);
    }
    // Two ids differing only after the first 64 bits share a short id (catalog refuses those).
    expect(shortIdOf('3f2b8c1e-9a4d-4e7f-0000-000000000000')).toBe(
      shortIdOf('3f2b8c1e-9a4d-4e7f-ffff-ffffffffffff'),
    );
    expect(shortIdOf('3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b')).not.toBe(
      shortIdOf('3f2b8c1e-9a4d-4e70-8b6a-1c2d3e4f5a6b'),
    );
    expect(shortIdRange('zzzzzzzzzzz')).toBeNull(); // beyond 64 bits
    expect(shortIdRange('short')).toBeNull();
  });

  it('builds and parses /p/<slug>-<shortId>', () => {
    const id = '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b';
    const path = productPath({ id, title: 'Lagos Guide' });
    expect(path).toBe(`/p/lagos-guide-${shortIdOf(id)}`);
    expect(parseProductSlugId(path.slice(3))).toEqual({
      slug: 'lagos-guide',
      shortId: shortIdOf(id),
    });
    expect(parseProductSlugId(shortIdOf(id))).toEqual({ slug: '', shortId: shortIdOf(id) });
    expect(parseProductSlugId('lagos-guide')).toBeNull();
  });
});
