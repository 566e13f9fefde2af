/** Spec §2 avatar chain after the picture: an image generated from the e-mail, then initials, then '?'. */

// FNV-1a: small, stable across browsers, and enough to spread e-mails over patterns and colours.
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** A 5×5 mirrored identicon as an SVG data URL: the same e-mail always gets the same image. */
export function identiconDataUrl(email: string): string | null {
  const normalized = email.trim().toLowerCase();
  if (!normalized) return null;
  const bits = hash(normalized);
  const hue = hash(`${normalized}#hue`) % 360;
  const cells: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let column = 0; column < 3; column++) {
      if (((bits >>> (row * 3 + column)) & 1) === 0) continue;
      for (const x of new Set([column, 4 - column])) {
        cells.push(`<rect x="${x + 0.5}" y="${row + 0.5}" width="1" height="1"/>`);
      }
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 6 6" shape-rendering="crispEdges"><rect width="6" height="6" fill="hsl(${hue} 70% 94%)"/><g fill="hsl(${hue} 55% 45%)">${cells.join('')}</g></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Initials of the full name in upper case ('Ada Obi' → 'AO', 'Ada' → 'AD'), or '?'. */
export function initialsOf(fullName: string | null | undefined): string {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  const [first = '', second] = words;
  const initials = second ? `${first[0]}${second[0]}` : first.slice(0, 2);
  return initials.toUpperCase() || '?';
}

/** The images to try in order; after the last fails the initials show. */
export function avatarImages(
  avatarUrl: string | null | undefined,
  email: string | null | undefined,
): string[] {
  return [avatarUrl, email ? identiconDataUrl(email) : null].filter(
    (source): source is string => typeof source === 'string' && source !== '',
  );
}
