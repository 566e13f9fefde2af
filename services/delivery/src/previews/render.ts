import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { StoredFile } from '../db/files.repo.js';
import { fileExtension } from '../domain/file-name.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { PreviewImage } from './image.js';
import { renderIsolated, UnrenderableFileError, type RenderLimits } from './isolated-render.js';
import { typeCard } from './type-card.js';

export interface RenderOptions extends RenderLimits {
  /** ffmpeg found on this machine; null: videos get their type card. */
  ffmpegPath: string | null;
}

/**
 * Images and PDFs bigger than this are not parsed at all (a video is only seeked into, so its
 * size does not matter); they show their type card.
 */
export const MAX_PARSED_INPUT_BYTES = 100 * 1024 * 1024;

/**
 * The preview of `file` at `blurPercentage`: images blurred, PDFs as a blurred page 1, videos
 * as a blurred frame (each rendered in a process of its own, see isolated-render.ts),
 * everything else as a type card. Never the original bytes.
 */
export async function renderPreview(
  storage: ObjectStorage,
  file: StoredFile,
  blurPercentage: number,
  options: RenderOptions,
): Promise<PreviewImage> {
  switch (file.kind) {
    case 'image':
    case 'pdf':
    case 'video': {
      const { kind } = file;
      if (kind === 'video' && !options.ffmpegPath) return cardFor(file);
      if (kind !== 'video' && file.sizeBytes > MAX_PARSED_INPUT_BYTES)
        throw new UnrenderableFileError(
          `${kind} of ${file.sizeBytes} bytes is over the parse limit`,
        );
      return withLocalFile(storage, file.storageKey, (inputPath) =>
        renderIsolated(
          { kind, inputPath, blurPercentage, ffmpegPath: options.ffmpegPath },
          options,
        ),
      );
    }
    case 'audio':
    case 'document':
      return cardFor(file);
  }
}

export function cardFor(file: StoredFile): Promise<PreviewImage> {
  return typeCard({
    kind: file.kind,
    fileName: file.fileName,
    sizeBytes: file.sizeBytes,
    extension: fileExtension(file.fileName),
  });
}

/**
 * Renderers need a path (libvips, ffmpeg and pdf.js seek around a file instead of buffering it).
 * The filesystem backend has one; an object from remote storage is copied to a temporary file
 * for the duration of the render.
 */
export async function withLocalFile<T>(
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
