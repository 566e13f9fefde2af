import type { Product } from '../types';

/** What a buyer gets, in a few words: the one file, or "3 files" and their total size. */
export function filesSummaryOf(product: Pick<Product, 'files' | 'fileName' | 'fileSizeBytes'>) {
  if (product.files.length < 2) return { name: product.fileName, sizeBytes: product.fileSizeBytes };
  return {
    name: `${product.files.length} files`,
    sizeBytes: product.files.reduce((total, file) => total + file.sizeBytes, 0),
  };
}
