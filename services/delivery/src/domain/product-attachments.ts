import { CommandFailedError, type Bus } from '@lockdrop/bus';
import { MAX_FILES_PER_PRODUCT, type CommandReply } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';
import type { StoredFile } from '../db/files.repo.js';

type Refusal = Extract<CommandReply<'products.attach_file'>, { ok: false }>['reason'];

/** `kept`: the file is already stored, so the answer names it (it stays in the seller's files). */
function refused(reason: Refusal, kept?: StoredFile): AppError {
  const details = kept ? { fileId: kept.id } : undefined;
  const stored = kept ? ` Your file was kept in your files (id ${kept.id}).` : '';
  return reason === 'product_not_found'
    ? new AppError('product_not_found', 404, `Product not found.${stored}`.trim(), details)
    : new AppError(
        'too_many_files',
        409,
        `A product holds at most ${MAX_FILES_PER_PRODUCT} files.${stored}`.trim(),
        details,
      );
}

/** Asks made when catalog's word is unknown: a timeout may hide an append that happened. */
const ATTACH_ATTEMPTS = 3;

/**
 * An API upload that names a product (POST /api/v1/files with `productId`), with catalog over
 * the bus (libs/contracts `products.*` commands). Not HTTP with the key's token: the gateway's
 * internal token may have a minute left when the upload starts, and a large file on a slow line
 * takes longer than that, so the append after it would be refused.
 */
export function createProductAttachments({ bus, timeoutMs }: { bus: Bus; timeoutMs: number }) {
  return {
    /**
     * Before any byte is read: the product must be the seller's and have room. Another seller's
     * product is the same 404 as none, so a key learns nothing about it.
     */
    async assertAttachable(sellerId: string, productId: string): Promise<void> {
      let answer: CommandReply<'products.file_attachable'>;
      try {
        answer = await bus.request(
          'products.file_attachable',
          { sellerId, productId },
          { timeoutMs },
        );
      } catch (error) {
        if (!(error instanceof CommandFailedError)) throw error;
        throw new AppError(
          'catalog_unavailable',
          503,
          'Products cannot be checked right now; nothing was uploaded. Please try again',
        );
      }
      if (!answer.ok) throw refused(answer.reason);
    },

    /**
     * Appends the stored file to the product. Catalog's append is idempotent, so an ask whose
     * answer never came is asked again; a refusal (the product deleted or filled meanwhile) or
     * no answer at all leaves the file in the seller's files, named in the error.
     */
    async attach(
      sellerId: string,
      productId: string,
      file: StoredFile,
      correlationId: string,
    ): Promise<void> {
      const request = {
        sellerId,
        productId,
        file: {
          fileId: file.id,
          fileName: file.fileName,
          sizeBytes: file.sizeBytes,
          kind: file.kind,
        },
        correlationId,
      };
      for (let attempt = 1; ; attempt += 1) {
        try {
          const answer = await bus.request('products.attach_file', request, { timeoutMs });
          if (!answer.ok) throw refused(answer.reason, file);
          return;
        } catch (error) {
          if (!(error instanceof CommandFailedError)) throw error;
          if (attempt < ATTACH_ATTEMPTS) continue;
          throw new AppError(
            'product_attach_failed',
            503,
            `Your file was uploaded (id ${file.id}) but could not be added to the product ` +
              'right now. Add it with PATCH /api/v1/products/{id} (files), or upload it again',
            { fileId: file.id },
          );
        }
      }
    },
  };
}
export type ProductAttachments = ReturnType<typeof createProductAttachments>;
