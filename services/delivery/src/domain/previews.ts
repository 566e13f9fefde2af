import type { Readable } from 'node:stream';
import type { AuthUser } from '@lockdrop/auth';
import type { Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { findPreview } from '../db/previews.repo.js';
import { findProduct } from '../db/products.repo.js';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/storage.js';
import type { FileKind } from './file-kind.js';
import type { PreviewStatus } from './preview-status.js';

export function previewNotAvailable(): AppError {
  return new AppError('preview_not_available', 404, 'Preview not available');
}

export interface PreviewState {
  status: PreviewStatus;
  kind: FileKind | null;
  blurPercentage: number;
  width: number | null;
  height: number | null;
}

export type PreviewImage =
  | { status: 'pending' }
  | {
      status: 'ready';
      body: Readable;
      contentType: string;
      etag: string;
      /** Drafts are seen by their owner only and must not sit in shared caches. */
      public: boolean;
    };

/**
 * Who may see what: a published product's preview is public; a draft's only its owner's;
 * anything else does not exist as far as the caller can tell (404, never 403).
 */
export function createPreviewService({ pool, storage }: { pool: Pool; storage: ObjectStorage }) {
  async function visible(productId: string, viewer: AuthUser | null) {
    const product = await findProduct(pool, productId);
    if (!product || product.deleted) throw previewNotAvailable();
    if (product.status !== 'published' && viewer?.id !== product.ownerId)
      throw previewNotAvailable();
    return { product, preview: await findPreview(pool, productId) };
  }

  async function state(productId: string, viewer: AuthUser | null): Promise<PreviewState> {
    const { product, preview } = await visible(productId, viewer);
    const ready = preview?.status === 'ready';
    return {
      status: preview?.status ?? (product.previewEnabled ? 'pending' : 'disabled'),
      kind: preview?.kind ?? null,
      blurPercentage: product.blurPercentage,
      width: ready ? preview.width : null,
      height: ready ? preview.height : null,
    };
  }

  /** Only the rendered derivative is ever read here; the uploaded file is not reachable from this path. */
  async function image(productId: string, viewer: AuthUser | null): Promise<PreviewImage> {
    const { product, preview } = await visible(productId, viewer);
    if (!product.previewEnabled || !preview) throw previewNotAvailable();
    if (preview.status === 'pending') return { status: 'pending' };
    // A failed render may still have a type card to show in its place.
    if (!preview.objectKey || !preview.etag) throw previewNotAvailable();
    try {
      return {
        status: 'ready',
        body: await storage.get(preview.objectKey),
        contentType: preview.contentType ?? 'image/jpeg',
        etag: `"${preview.etag}"`,
        public: product.status === 'published',
      };
    } catch (error) {
      // Replaced or removed between the read above and now: behave as if it was never there.
      if (error instanceof ObjectNotFoundError) throw previewNotAvailable();
      throw error;
    }
  }

  return { state, image };
}

export type Previews = ReturnType<typeof createPreviewService>;
