import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { StoredFile } from '../db/files.repo.js';
import { fileExtension } from '../domain/file-name.js';
import type { ObjectStorage } from '../storage/storage.js';
import { blurredPreview, type PreviewImage } from './image.js';
import { renderFirstPage } from './pdf.js';
import { typeCard } from './type-card.js';
import { posterFrame } from './video.js';

/**
 * The preview of `file` at `blurPercentage`: images blurred, PDFs as a blurred page 1, videos
 * as a blurred frame, everything else as a type card. Never the original bytes.
 */
export async function renderPreview(
  storage: ObjectStorage,
  file: StoredFile,
  blurPercentage: number,
): Promise<PreviewImage> {
  switch (file.kind) {
    case 'image':
      return withLocalFile(storage, file.storageKey, (filePath) =>
        blurredPreview(filePath, blurPercentage),
      );
    case 'pdf':
      return withLocalFile(storage, file.storageKey, async (filePath) =>
        blurredPreview(await renderFirstPage(filePath), blurPercentage),
      );
    case 'video':
      return withLocalFile(storage, file.storageKey, async (filePath) =>
        blurredPreview(await posterFrame(filePath), blurPercentage),
      );
    case 'audio':
    case 'document':
      return typeCard({
        kind: file.kind,
        fileName: file.fileName,
        sizeBytes: file.sizeBytes,
        extension: fileExtension(file.fileName),
      });
  }
}

/**
 * Renderers need a path (libvips, ffmpeg and pdf.js seek around a file instead of buffering it).
 * The filesystem backend has one; an object from remote storage is copied to a temporary file
 * for the duration of the render.
 */
async function withLocalFile<T>(
  storage: ObjectStorage,
  key: string,
  work: (filePath: string) => Promise<T>,
): Promise<T> {
  const local = storage.localPath(key);
  if (local) return work(local);
  const dir = await mkdtemp(path.join(tmpdir(), 'lockdrop-preview-'));
  try {
    const copy = path.join(dir, randomUUID());
    await pipeline(await storage.get(key), createWriteStream(copy));
    return await work(copy);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
