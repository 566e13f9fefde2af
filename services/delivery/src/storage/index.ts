import type { DeliveryConfig } from '../config.js';
import { createFilesystemStorage } from './filesystem.js';
import type { ObjectStorage } from './storage.js';

export { ObjectNotFoundError, type ObjectStorage, type ByteRange, type ObjectStat } from './storage.js';

/** The configured backend: the local filesystem by default, S3-compatible storage for several replicas. */
export async function createStorage(config: DeliveryConfig): Promise<ObjectStorage> {
  return createFilesystemStorage(config.DATA_DIR);
}
