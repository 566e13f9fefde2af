const MAX_NAME_BYTES = 200;
const FALLBACK_NAME = 'file';
// Windows device names stay dangerous with any extension when a buyer saves the file.
const RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/**
 * The name a buyer's browser will save the file under, made harmless: only the last path
 * segment (no `../`, no drive or UNC prefix), no control or bidirectional-override characters
 * (`evil\u202Egpj.exe`), no characters Windows refuses, no leading dots, at most 200 bytes of
 * UTF-8 with the extension kept.
 */
export function sanitizeFileName(raw: string): string {
  const lastSegment = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = lastSegment
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  if (!name) return FALLBACK_NAME;
  const { stem, extension } = splitExtension(name);
  if (RESERVED_NAMES.test(stem)) name = `_${name}`;
  return truncateKeepingExtension(name, extension);
}

/** Lower-case extension of a sanitised name, when it looks like one (`tar.gz` → `gz`). */
export function fileExtension(name: string): string | null {
  const { extension } = splitExtension(name);
  return extension && /^[a-z0-9]{1,10}$/i.test(extension) ? extension.toLowerCase() : null;
}

function splitExtension(name: string): { stem: string; extension: string | null } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { stem: name, extension: null };
  return { stem: name.slice(0, dot), extension: name.slice(dot + 1) };
}

function truncateKeepingExtension(name: string, extension: string | null): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const suffix = extension && Buffer.byteLength(extension) < 20 ? `.${extension}` : '';
  const stemBudget = MAX_NAME_BYTES - Buffer.byteLength(suffix);
  let stem = '';
  for (const character of name.slice(0, name.length - suffix.length)) {
    if (Buffer.byteLength(stem + character) > stemBudget) break;
    stem += character;
  }
  return `${stem.trimEnd()}${suffix}`;
}

/**
 * The name of a ZIP of a product's files: its title made safe (a `/` in it is no folder), or
 * `Files.zip` when no title is known.
 */
export function archiveFileName(title: string | null): string {
  const stem = sanitizeFileName((title ?? '').replace(/[/\\]/g, '-') || 'Files');
  return sanitizeFileName(`${stem}.zip`);
}

/**
 * `Content-Disposition` that makes browsers save the file under its (already sanitised) name:
 * an ASCII fallback for old clients and the exact name as RFC 8187 UTF-8.
 */
export function attachmentDisposition(name: string): string {
  const safe = sanitizeFileName(name);
  const ascii = safe.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(safe).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
