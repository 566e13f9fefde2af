import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { ByteRange } from './storage.js';

/** Stack notes #5: 1 MiB reads move files about twice as fast as Node's 64 KiB default. */
const CHUNK_BYTES = 1 << 20;
/** Read buffers kept for the next download: enough for eight downloads in flight. */
const KEPT_BUFFERS = 16;
const kept: Buffer[] = [];

const take = () => kept.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
const giveBack = (buffer: Buffer) => {
  if (kept.length < KEPT_BUFFERS) kept.push(buffer);
};

export interface OpenedFile {
  /**
   * Writes the range to `destination` and ends it; rejects when the destination fails or goes
   * away (the caller destroys it). Closes the file either way.
   */
  sendTo(destination: Writable): Promise<void>;
}

/**
 * A local file sent by Node itself (`npm start`: DOWNLOAD_OFFLOAD=none), read into a few 1 MiB
 * buffers that are used again once the socket has taken their bytes, instead of a fresh buffer
 * for every read as a file stream allocates. Each of those fresh megabytes counted against V8's
 * external memory and brought a full garbage collection over delivery's whole heap every few
 * dozen megabytes: 16 % of delivery's time while streaming. A buffer is reused only after the
 * write callback said the socket has it, so no byte is overwritten before it is sent; one chunk is
 * read while the one before is written. Opening first lets a missing file be answered as one
 * before any header is sent.
 */
export async function openFileRange(path: string, range: ByteRange): Promise<OpenedFile> {
  const handle = await open(path, 'r');
  return {
    async sendTo(destination) {
      let writing: Promise<void> | null = null;
      // A buyer gone mid-download: stop at once, whether or not the write in flight says so.
      const gone = new Promise<never>((_resolve, reject) =>
        destination.once('close', () => reject(new Error('the destination closed'))),
      );
      gone.catch(() => undefined);
      const written = () => (writing ? Promise.race([writing, gone]) : undefined);
      try {
        for (let position = range.start; position <= range.end;) {
          const buffer = take();
          const wanted = Math.min(CHUNK_BYTES, range.end - position + 1);
          const { bytesRead } = await handle.read(buffer, 0, wanted, position);
          if (bytesRead === 0) {
            giveBack(buffer);
            throw new Error(`${path} ended ${range.end - position + 1} bytes early`);
          }
          position += bytesRead;
          await written();
          writing = new Promise<void>((resolve, reject) => {
            destination.write(buffer.subarray(0, bytesRead), (error) => {
              // Handed over (or failed): the socket no longer needs these bytes.
              giveBack(buffer);
              if (error) reject(error);
              else resolve();
            });
          });
          // Awaited at the next chunk or the end; if a read fails first, no unhandled rejection.
          writing.catch(() => undefined);
        }
        await written();
        destination.end();
      } finally {
        await handle.close();
      }
    },
  };
}
