import type { ProductFile, PurchaseFiles } from '@lockdrop/contracts';

/**
 * How a purchase's files are offered: one file keeps today's single 'Download File'; several get
 * a Download button each and 'Download all (ZIP)'.
 */
export type DownloadChoice =
  | { kind: 'none' }
  | { kind: 'single'; file: ProductFile }
  | { kind: 'several'; files: ProductFile[]; zip: PurchaseFiles['zip'] };

export function downloadChoiceOf({ files, zip }: PurchaseFiles): DownloadChoice {
  const [first] = files;
  if (!first) return { kind: 'none' };
  if (files.length === 1) return { kind: 'single', file: first };
  return { kind: 'several', files, zip };
}
