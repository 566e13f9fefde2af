import type { Bus } from '@lockdrop/bus';
import type { ProductService } from '../domain/products.js';

/**
 * Delivery's questions about an API upload that names a product (POST /api/v1/files with
 * `productId`): before it reads the file, may this seller add a file to that product; once it
 * is stored, append it. Delivery checked the key and its scopes; catalog checks the product.
 */
export function serveFileAttachments(
  bus: Bus,
  products: Pick<ProductService, 'fileAttachable' | 'attachFile'>,
): void {
  bus.serve('products.file_attachable', ({ sellerId, productId }) =>
    products.fileAttachable(sellerId, productId),
  );
  bus.serve('products.attach_file', ({ sellerId, productId, file, correlationId }) =>
    products.attachFile(sellerId, productId, file, correlationId),
  );
}
