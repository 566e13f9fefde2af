import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { startS3Server } from '@lockdrop/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createFilesystemStorage } from '../src/storage/filesystem.js';
import { createS3Storage } from '../src/storage/s3.js';
import { ObjectNotFoundError, type ObjectStorage } from '../src/storage/storage.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(() => Promise.all(cleanups.map((cleanup) => cleanup())));

/**
 * A stream that sends `bytes` and then, a moment later (time enough for a backend to store what
 * it has, an S3 part included), fails, like a client that goes away mid-upload.
 */
function failingAfter(bytes: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(bytes);
      } else setTimeout(() => this.destroy(new Error('client went away')), 500);
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

    it('stores the bytes whole and in order, whatever pieces they arrive in', async () => {
      const storage = await open();
      // Around the 1 MiB pieces the filesystem writes in, ending exactly on one and just past one.
      const MIB = 1024 * 1024;
      for (const sizes of [
        [1, 16 * 1024, MIB - 1, MIB, MIB + 1, 64 * 1024, 3],
        [MIB - 1, 1],
        [7],
      ]) {
        const pieces = sizes.map((size) => randomBytes(size));
        const key = `owner/${Date.now()}-${sizes.length}-pieces.bin`;
        const total = sizes.reduce((sum, size) => sum + size, 0);
        expect(await storage.put(key, Readable.from(pieces))).toEqual({ sizeBytes: total });
        const stored = Buffer.concat(await (await storage.get(key)).toArray());
        expect(stored.equals(Buffer.concat(pieces)), sizes.join('+')).toBe(true);
        await storage.delete(key);
      }
    });

    it('stores a file of several multipart parts and reads a range across a part boundary', async () => {
      const storage = await open();
      const bytes = randomBytes(20 * 1024 * 1024 + 5);
      const key = `owner/${Date.now()}-large.bin`;
      expect(await storage.put(key, Readable.from([bytes]))).toEqual({ sizeBytes: bytes.length });
      const boundary = 8 * 1024 * 1024;
      const across = Buffer.concat(
        await (await storage.get(key, { start: boundary - 100, end: boundary + 99 })).toArray(),
      );
      expect(across).toEqual(bytes.subarray(boundary - 100, boundary + 100));
      const tail = Buffer.concat(
        await (
          await storage.get(key, { start: bytes.length - 5, end: bytes.length - 1 })
        ).toArray(),
      );
      expect(tail).toEqual(bytes.subarray(-5));
      await storage.delete(key);
    });

    it('leaves nothing behind when the body fails mid-way', async () => {
      const storage = await open();
      const key = `owner/${Date.now()}-broken.bin`;
      // More than one multipart part, so an S3 backend has parts to abort.
      await expect(storage.put(key, failingAfter(randomBytes(9 * 1024 * 1024)))).rejects.toThrow(
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

// S3 runs against a real S3-compatible server: s3rver from npm, started here (libs/testing), or
// the endpoint S3_TEST_ENDPOINT names (a MinIO, a bucket at a provider) when set.
const external = process.env.S3_TEST_ENDPOINT;
const local = external ? null : await startS3Server();
if (local) cleanups.push(() => local.stop());
storageContract(
  external ? `s3 (${external})` : 's3 (s3rver)',
  async () =>
    createS3Storage({
      bucket: process.env.S3_TEST_BUCKET ?? local?.bucket ?? 'lockdrop-test',
      region: process.env.S3_TEST_REGION ?? 'us-east-1',
      endpoint: external ?? local!.endpoint,
      credentials: local?.credentials ?? {
        accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? '',
        secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? '',
      },
      forcePathStyle: true,
    }),
  // Every test deletes what it stored, so any object left is an orphan.
  async () => (local ? local.objectKeys() : []),
);
