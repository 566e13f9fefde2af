import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createFilesystemStorage } from '../src/storage/filesystem.js';
import { createS3Storage } from '../src/storage/s3.js';
import { ObjectNotFoundError, type ObjectStorage } from '../src/storage/storage.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())));

/** A stream that sends `bytes` and then fails, like a client that goes away mid-upload. */
function failingAfter(bytes: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(bytes);
      } else this.destroy(new Error('client went away'));
    },
  });
}

/** The behaviour every backend owes the service, run against each one available. */
function storageContract(
  name: string,
  open: () => Promise<ObjectStorage>,
  leftovers: () => Promise<string[]>,
) {
  describe(`${name} storage`, () => {
    it('stores, reads (whole and by range), stats and deletes an object', async () => {
      const storage = await open();
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      const key = `owner/${Date.now()}-a.bin`;
      expect(
        await storage.put(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)])),
      ).toEqual({ sizeBytes: bytes.length });
      const whole = createHash('sha256');
      for await (const chunk of await storage.get(key)) whole.update(chunk);
      expect(whole.digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
      const range = Buffer.concat(await (await storage.get(key, { start: 10, end: 19 })).toArray());
      expect(range).toEqual(bytes.subarray(10, 20));
      expect((await storage.stat(key))?.sizeBytes).toBe(bytes.length);
      await storage.delete(key);
      await storage.delete(key);
      expect(await storage.stat(key)).toBeNull();
      await expect(storage.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('leaves nothing behind when the body fails mid-way', async () => {
      const storage = await open();
      const key = `owner/${Date.now()}-broken.bin`;
      await expect(storage.put(key, failingAfter(randomBytes(64 * 1024)))).rejects.toThrow(
        'client went away',
      );
      expect(await storage.stat(key)).toBeNull();
      expect(await leftovers()).toEqual([]);
    });

    it('refuses keys that could escape its root', async () => {
      const storage = await open();
      for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '']) {
        await expect(storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow(
          'invalid object key',
        );
      }
    });
  });
}

const root = await mkdtemp(path.join(tmpdir(), 'lockdrop-storage-'));
cleanups.push(() => rm(root, { recursive: true, force: true }));
storageContract(
  'filesystem',
  () => createFilesystemStorage(root),
  async () => readdir(path.join(root, '.incoming')),
);

// S3 runs only against a real S3-compatible endpoint named by env (e.g. a MinIO on the machine).
const s3 = process.env.S3_TEST_ENDPOINT;
describe.skipIf(!s3)('S3 (S3_TEST_ENDPOINT)', () => {
  storageContract(
    's3',
    async () =>
      createS3Storage({
        bucket: process.env.S3_TEST_BUCKET ?? 'lockdrop-test',
        region: process.env.S3_TEST_REGION ?? 'us-east-1',
        endpoint: s3,
        credentials: {
          accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? '',
          secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? '',
        },
        forcePathStyle: true,
      }),
    async () => [],
  );
});
