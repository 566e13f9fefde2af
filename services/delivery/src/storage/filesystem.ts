import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage } from './storage.js';

/** Stack notes #5: 1 MiB reads move files about twice as fast as Node's 64 KiB default. */
const READ_CHUNK_BYTES = 1 << 20;
/**
 * Uploads reach `put` in the pieces the multipart parser cut (a socket read or less, often
 * 16–64 KiB); each piece written is a threadpool round trip that cost ≈50 ms of CPU per 45 MiB
 * upload. Gathered into 1 MiB vectored writes, a bare server spent a third less CPU and took
 * uploads ≈1.4× as fast (docs/performance.md, issue 31).
 */
const WRITE_CHUNK_BYTES = 1 << 20;
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
        const output = gatheringFileWriter(temp, WRITE_CHUNK_BYTES);
        await pipeline(body, output);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
        return { sizeBytes: output.bytesWritten() };
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

/**
 * A new file at `target` (it must not exist), written `gather` bytes at a time with one vectored
 * write of the pieces received, no copy, and flushed to disk before the stream finishes.
 */
function gatheringFileWriter(
  target: string,
  gather: number,
): Writable & { bytesWritten(): number } {
  let handle: FileHandle | undefined;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let written = 0;
  const writeHeld = async () => {
    let pieces = held;
    let remaining = heldBytes;
    held = [];
    heldBytes = 0;
    while (remaining > 0) {
      const { bytesWritten } = await handle!.writev(pieces);
      written += bytesWritten;
      remaining -= bytesWritten;
      // A short write (a full disk, a signal) goes on from where it stopped.
      if (remaining > 0) pieces = [Buffer.concat(pieces).subarray(-remaining)];
    }
  };
  const writer = new Writable({
    construct(done) {
      open(target, 'wx').then((opened) => {
        handle = opened;
        done();
      }, done);
    },
    write(chunk: Buffer, _encoding, done) {
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < gather) return done();
      writeHeld().then(() => done(), done);
    },
    final(done) {
      writeHeld()
        .then(() => handle!.sync())
        .then(() => done(), done);
    },
    destroy(error, done) {
      const closing = handle?.close() ?? Promise.resolve();
      closing.then(
        () => done(error),
        (cause: unknown) => done(error ?? (cause as Error)),
      );
    },
  });
  return Object.assign(writer, { bytesWritten: () => written });
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
