import type { FileKind } from '@lockdrop/contracts';

export { fileKindSchema, type FileKind } from '@lockdrop/contracts';

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'webm', 'ogg']);
const AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'ogg']);

/** Spec §4: the kind a file name suggests; `ogg` is treated as video first. */
export function kindFromExtension(extension: string | null): FileKind {
  const ext = extension?.toLowerCase() ?? '';
  if (IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (ext === 'pdf') return 'pdf';
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  if (AUDIO_EXTENSIONS.has(ext)) return 'audio';
  return 'document';
}

/** Raster formats the preview renderer (libvips) decodes; other image types get a type card. */
const RENDERABLE_IMAGE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

function kindFromContentType(contentType: string): FileKind | null {
  if (RENDERABLE_IMAGE_TYPES.has(contentType)) return 'image';
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  return null;
}

/**
 * The name proposes, the bytes decide: a kind the extension claims stands only when the sniffed
 * content type backs it (a renamed executable called photo.jpg is a document), and bytes of a
 * known media type win over any name. The one place the name refines the bytes: containers
 * shared by audio and video (MP4, WebM) named as audio (`.m4a`, `.mp3`) are audio.
 */
export function fileKind(extension: string | null, sniffedType: string | null): FileKind {
  const sniffed = sniffedType ? kindFromContentType(sniffedType) : null;
  if (sniffed === 'video' && kindFromExtension(extension) === 'audio') return 'audio';
  return sniffed ?? 'document';
}
