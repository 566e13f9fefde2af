import type { EventData, FileKind } from '@lockdrop/contracts';

/** The shapes the product events carry are the catalog's own vocabulary. */
type Snapshot = EventData<'product.created'>;
export type Pricing = Snapshot['pricing'];
export type ProductStatus = Snapshot['status'];
export type { FileKind };

/** One of the files buyers get. */
export interface ProductFile {
  fileId: string;
  fileName: string;
  sizeBytes: number;
  kind: FileKind;
}

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
  /** In the seller's order; `fileId` (described by the three fields above) is one of them. */
  files: ProductFile[];
  /** When the seller last e-mailed past buyers about new files. */
  buyersToldAt: Date | null;
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
    files: product.files.map((file) => ({
      fileId: file.fileId,
      fileName: file.fileName,
      fileSizeBytes: file.sizeBytes,
    })),
    previewEnabled: product.previewEnabled,
    previewBlurPercentage: product.previewBlurPercentage,
    stampPdfs: product.stampPdfs,
  };
}

/**
 * The product with `files` as its file list and `previewFileId` (one of them) as its preview
 * source: the one way the list and the preview fields change, so they cannot disagree.
 */
export function withFiles(product: Product, files: ProductFile[], previewFileId: string): Product {
  const preview = files.find((file) => file.fileId === previewFileId);
  if (!preview) throw new Error(`preview file ${previewFileId} is not among the product's files`);
  return {
    ...product,
    files,
    fileId: preview.fileId,
    fileName: preview.fileName,
    fileSizeBytes: preview.sizeBytes,
    fileKind: preview.kind,
  };
}

/** The files of `after` that `before` did not have (added or replacing ones), in order. */
export function filesAdded(before: Product, after: Product): ProductFile[] {
  const had = new Set(before.files.map((file) => file.fileId));
  return after.files.filter((file) => !had.has(file.fileId));
}
