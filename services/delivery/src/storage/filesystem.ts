import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage } from './storage.js';

/** Stack notes #5: 1 MiB reads move files about twice as fast as Node's 64 KiB default. */
const READ_CHUNK_BYTES = 1 << 20;
/** Inside the root, so the final rename never crosses a filesystem and is atomic. */
const TEMP_DIR = '.incoming';

/**
 * Objects as files under `root`. A put writes a temporary file, flushes it to disk and renames
 * it into place, so a reader never sees a half-written object and a failed upload leaves only
 * a temporary file that is removed at once.
 */
export async function createFilesystemStorage(root: string): Promise<ObjectStorage> {
  const base = path.resolve(root);
  const tempDir = path.join(base, TEMP_DIR);
  await mkdir(tempDir, { recursive: true });
  const pathOf = (key: string) => path.join(base, assertObjectKey(key));

  return {
    async put(key, body: Readable) {
      const target = pathOf(key);
      const temp = path.join(tempDir, randomUUID());
      try {
        const output = createWriteStream(temp, { flags: 'wx', flush: true });
        await pipeline(body, output);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
        return { sizeBytes: output.bytesWritten };
      } catch (error) {
        body.destroy();
        await rm(temp, { force: true });
        throw error;
      }
    },

    async get(key, range) {
      try {
        const handle = await open(pathOf(key), 'r');
        return handle.createReadStream({
          start: range?.start,
          end: range?.end,
          highWaterMark: READ_CHUNK_BYTES,
        });
      } catch (error) {
        if (isMissing(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async stat(key) {
      try {
        const info = await stat(pathOf(key));
        return { sizeBytes: info.size, modifiedAt: info.mtime };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    localPath(key) {
      return pathOf(key);
    },

    async signedUrl() {
      return null;
    },
  };
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
