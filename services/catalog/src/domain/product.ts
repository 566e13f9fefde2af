import type { EventData, FileKind } from '@lockdrop/contracts';

/** The shapes the product events carry are the catalog's own vocabulary. */
type Snapshot = EventData<'product.created'>;
export type Pricing = Snapshot['pricing'];
export type ProductStatus = Snapshot['status'];
export type { FileKind };

export interface Product {
  id: string;
  ownerId: string;
  title: string;
  description: string | null;
  priceMinor: number;
  currency: string;
  pricing: Pricing;
  /** Pay what you want: the least a buyer may pay (`priceMinor` is the suggestion); null when fixed. */
  minimumPriceMinor: number | null;
  status: ProductStatus;
  fileId: string;
  fileName: string;
  fileSizeBytes: number;
  fileKind: FileKind;
  previewEnabled: boolean;
  previewBlurPercentage: number;
  stampPdfs: boolean;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
}

/** What is shown to everyone: published products; drafts only to their owner. */
export function isVisibleTo(product: Product, viewerId: string | null): boolean {
  return product.status === 'published' || product.ownerId === viewerId;
}

export function snapshotOf(product: Product): Snapshot {
  return {
    productId: product.id,
    ownerId: product.ownerId,
    title: product.title,
    description: product.description,
    priceMinor: product.priceMinor,
    currency: product.currency,
    pricing: product.pricing,
    minimumPriceMinor: product.minimumPriceMinor,
    status: product.status,
    fileId: product.fileId,
    fileName: product.fileName,
    fileSizeBytes: product.fileSizeBytes,
    previewEnabled: product.previewEnabled,
    previewBlurPercentage: product.previewBlurPercentage,
    stampPdfs: product.stampPdfs,
  };
}
