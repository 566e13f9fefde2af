import type { ProductFile, PurchaseFiles } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import { downloadChoiceOf } from './download-choice';

const makeFile = (fileName: string, at: number): ProductFile => ({
  fileId: `00000000-0000-4000-8000-${String(at).padStart(12, '0')}`,
  fileName,
  sizeBytes: 1024 * at,
  kind: 'document',
});

const makeAnswer = (files: ProductFile[]): PurchaseFiles => ({
  files,
  zip: { fileName: 'field-notes.zip', sizeBytes: 4096 },
});

describe("a purchase's files on the buyer's pages", () => {
  it('offers one file the way a single download always looked', () => {
    const guide = makeFile('guide.pdf', 1);
    expect(downloadChoiceOf(makeAnswer([guide]))).toEqual({ kind: 'single', file: guide });
  });

  it('offers several files one by one, in the seller’s order, and all of them as a ZIP', () => {
    const files = [makeFile('guide.pdf', 1), makeFile('presets.zip', 2), makeFile('cover.png', 3)];
    const choice = downloadChoiceOf(makeAnswer(files));
    expect(choice).toEqual({
      kind: 'several',
      files,
      zip: { fileName: 'field-notes.zip', sizeBytes: 4096 },
    });
  });

  it('says so when there is nothing to download', () => {
    expect(downloadChoiceOf(makeAnswer([]))).toEqual({ kind: 'none' });
  });
});
