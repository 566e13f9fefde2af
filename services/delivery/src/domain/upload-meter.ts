import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/** What file-type calls a reasonable sample: most formats are recognised within it. */
const SNIFF_BYTES = 4100;

export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
}

/**
 * Passes an upload through unchanged while counting its bytes, hashing it (SHA-256) and keeping
 * its first few KiB for content sniffing. It fails the stream the moment more than `maxBytes`
 * arrive, so the storage write is aborted mid-stream rather than after the whole body.
 */
export class UploadMeter extends Transform {
  readonly #hash = createHash('sha256');
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #sizeBytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#sizeBytes += chunk.length;
    if (this.#sizeBytes > this.maxBytes) return done(new FileTooLargeError());
    this.#hash.update(chunk);
    if (this.#headBytes < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.#headBytes);
      this.#head.push(Buffer.from(part));
      this.#headBytes += part.length;
    }
    done(null, chunk);
  }

  /** Valid once the stream has finished. */
  result(): { sizeBytes: number; sha256: string; head: Buffer } {
    return {
      sizeBytes: this.#sizeBytes,
      sha256: this.#hash.digest('hex'),
      head: Buffer.concat(this.#head),
    };
  }
}
