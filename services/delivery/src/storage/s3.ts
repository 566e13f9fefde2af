import { pipeline, Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  NotFound,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertObjectKey, ObjectNotFoundError, type ObjectStorage } from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible endpoint (MinIO, R2, Spaces); unset means AWS. */
  endpoint?: string;
  /** Where buyers' browsers reach the bucket, for signed URLs, when not at `endpoint`. */
  publicEndpoint?: string;
  /** Static keys; unset uses the SDK's default chain (env, instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

/** 8 MiB parts, 4 in flight: about 32 MiB of buffers per upload at most, whatever the file size. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

/**
 * Objects in an S3-compatible bucket, for several replicas sharing one store. A put is a
 * multipart upload that is aborted (its parts discarded) when the body fails, so nothing
 * partial becomes visible under the key.
 */
export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const config: S3ClientConfig = { region: options.region, forcePathStyle: options.forcePathStyle };
  if (options.endpoint) config.endpoint = options.endpoint;
  if (options.credentials) config.credentials = options.credentials;
  const client = new S3Client(config);
  // Signing is local (no request); only the host in the URL differs.
  const signer = options.publicEndpoint
    ? new S3Client({ ...config, endpoint: options.publicEndpoint })
    : client;
  const Bucket = options.bucket;

  return {
    async put(key, body: Readable) {
      let sizeBytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      const counted = pipeline(body, counter, () => undefined);
      const upload = new Upload({
        client,
        params: { Bucket, Key: assertObjectKey(key), Body: counted },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      const failed = new Promise<never>((_, reject) => counted.once('error', reject));
      try {
        await Promise.race([upload.done(), failed]);
        return { sizeBytes };
      } catch (error) {
        await upload.abort().catch(() => undefined);
        throw error;
      }
    },

    async get(key, range) {
      try {
        const { Body } = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: assertObjectKey(key),
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        return Body as Readable;
      } catch (error) {
        if (error instanceof NoSuchKey) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async stat(key) {
      try {
        const head = await client.send(
          new HeadObjectCommand({ Bucket, Key: assertObjectKey(key) }),
        );
        return { sizeBytes: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
      } catch (error) {
        if (error instanceof NotFound || error instanceof NoSuchKey) return null;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: assertObjectKey(key) }));
    },

    localPath() {
      return null;
    },

    signedUrl(key, response) {
      return getSignedUrl(
        signer,
        new GetObjectCommand({
          Bucket,
          Key: assertObjectKey(key),
          ResponseContentType: response.contentType,
          ResponseContentDisposition: response.contentDisposition,
          ResponseCacheControl: 'private, no-store',
        }),
        { expiresIn: response.expiresInSeconds },
      );
    },
  };
}
