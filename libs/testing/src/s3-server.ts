// s3rver ships no types: the ambient declaration has to travel with this module into every
// project that compiles it (their tsconfigs include only their own sources).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./s3rver.d.ts" />
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** How s3rver's filesystem store names an object's bytes on its disk. */
const OBJECT_SUFFIX = '._S3rver_object';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /**
   * The keys of the objects in the bucket, as a reader sees them. (Parts of an unfinished
   * multipart upload are not objects. s3rver does not implement AbortMultipartUpload, so it
   * keeps an aborted upload's parts on its disk; real S3 frees them on the abort delivery sends,
   * and the bucket's AbortIncompleteMultipartUpload lifecycle rule after a crash.)
   */
  objectKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible HTTP server (s3rver, from npm: signature v4, multipart uploads, Range
 * reads) on a random local port, with one empty bucket, storing into a scratch directory.
 * Chosen over @zenko/cloudserver because it installs with npm alone and starts in
 * milliseconds; what it does not implement (versioning, lifecycle) delivery does not use.
 */
export async function startS3Server(bucket = 'lockdrop-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'lockdrop-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    // s3rver's fixed development keys: it checks signatures made with them.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async objectKeys() {
      const bucketDir = path.join(directory, bucket);
      const entries = await readdir(bucketDir, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith(OBJECT_SUFFIX))
        .map((entry) =>
          path
            .relative(bucketDir, path.join(entry.parentPath, entry.name))
            .slice(0, -OBJECT_SUFFIX.length),
        );
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Delivery's env for the S3 backend on `server` (path-style addressing, as s3rver needs). */
export function s3StorageEnv(server: S3TestServer): Record<string, string> {
  return {
    STORAGE_BACKEND: 's3',
    S3_BUCKET: server.bucket,
    S3_REGION: server.region,
    S3_ENDPOINT: server.endpoint,
    S3_ACCESS_KEY_ID: server.credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: server.credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
