import { errorBodySchema, type Product as ProductDto } from '@lockdrop/contracts';
import { formatMoney, minorToDecimalString } from '@lockdrop/money';
import type { Product } from '../domain/product.js';

export const errorResponses = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  429: errorBodySchema,
  503: errorBodySchema,
};

export function toProductDto(product: Product): ProductDto {
  return {
    id: product.id,
    ownerId: product.ownerId,
    title: product.title,
    description: product.description,
    priceMinor: product.priceMinor,
    currency: product.currency,
    price: minorToDecimalString(product.priceMinor, product.currency),
    priceFormatted: formatMoney(product.priceMinor, product.currency),
    pricing: product.pricing,
    payWhatYouWant:
      product.minimumPriceMinor === null
        ? null
        : {
            minimumMinor: product.minimumPriceMinor,
            minimum: minorToDecimalString(product.minimumPriceMinor, product.currency),
            minimumFormatted: formatMoney(product.minimumPriceMinor, product.currency),
          },
    status: product.status,
    fileId: product.fileId,
    fileName: product.fileName,
    fileSizeBytes: product.fileSizeBytes,
    fileKind: product.fileKind,
    files: product.files,
    buyersToldAt: product.buyersToldAt?.toISOString() ?? null,
    previewEnabled: product.previewEnabled,
    previewBlurPercentage: product.previewBlurPercentage,
    stampPdfs: product.stampPdfs,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
    publishedAt: product.publishedAt?.toISOString() ?? null,
  };
}
