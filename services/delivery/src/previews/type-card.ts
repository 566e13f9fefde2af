import { formatFileSize } from '@lockdrop/plans';
import sharp from 'sharp';
import type { FileKind } from '../domain/file-kind.js';
import type { PreviewImage } from './image.js';

const WIDTH = 1200;
const HEIGHT = 630;
const MAX_NAME_CHARACTERS = 32;

const KIND_LABEL: Record<FileKind, string> = {
  image: 'Image',
  pdf: 'PDF document',
  video: 'Video',
  audio: 'Audio',
  document: 'File',
};
const KIND_COLOUR: Record<FileKind, string> = {
  image: '#0ea5e9',
  pdf: '#ef4444',
  video: '#8b5cf6',
  audio: '#f59e0b',
  document: '#10b981',
};

export interface TypeCardFile {
  kind: FileKind;
  fileName: string;
  sizeBytes: number;
  extension: string | null;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

function shorten(text: string, max: number): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/**
 * What a buyer sees for files that have no picture of their own (audio, archives, documents):
 * a file icon in the kind's colour with the extension, the kind, the name and the size. It
 * says only what the spec shows anyway (type and name), so it is never blurred.
 */
export async function typeCard(file: TypeCardFile): Promise<PreviewImage> {
  const colour = KIND_COLOUR[file.kind];
  const extension = escapeXml(shorten((file.extension ?? file.kind).toUpperCase(), 5));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0f172a"/><stop offset="1" stop-color="#1e293b"/></linearGradient></defs>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="url(#bg)"/>
  <g transform="translate(120 150)">
    <path d="M0 24 A24 24 0 0 1 24 0 H176 L260 84 V306 A24 24 0 0 1 236 330 H24 A24 24 0 0 1 0 306 Z" fill="#f8fafc"/>
    <path d="M176 0 V60 A24 24 0 0 0 200 84 H260 Z" fill="#cbd5e1"/>
    <rect x="28" y="200" width="204" height="72" rx="12" fill="${colour}"/>
    <text x="130" y="250" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="40" font-weight="bold" fill="#ffffff" text-anchor="middle">${extension}</text>
  </g>
  <g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif">
    <text x="450" y="250" font-size="36" fill="${colour}" font-weight="bold">${escapeXml(KIND_LABEL[file.kind].toUpperCase())}</text>
    <text x="450" y="320" font-size="36" fill="#f8fafc">${escapeXml(shorten(file.fileName, MAX_NAME_CHARACTERS))}</text>
    <text x="450" y="380" font-size="32" fill="#94a3b8">${escapeXml(formatFileSize(file.sizeBytes))}</text>
    <text x="450" y="470" font-size="28" fill="#64748b">Unlocks after payment</text>
  </g>
</svg>`;
  const image = await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
  return { image, contentType: 'image/jpeg', width: WIDTH, height: HEIGHT };
}
