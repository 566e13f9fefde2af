import type { DeliveryConfig } from '../config.js';
import { createFilesystemStorage } from './filesystem.js';
import { createS3Storage } from './s3.js';
import type { ObjectStorage } from './storage.js';

export {
  ObjectNotFoundError,
  type ObjectStorage,
  type ByteRange,
  type ObjectStat,
  type SignedResponse,
} from './storage.js';

/** The configured backend: the local filesystem by default, S3-compatible storage for several replicas. */
export async function createStorage(config: DeliveryConfig): Promise<ObjectStorage> {
  if (config.STORAGE_BACKEND === 'filesystem') return createFilesystemStorage(config.DATA_DIR);
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  return createS3Storage({
    bucket: config.S3_BUCKET!,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}
