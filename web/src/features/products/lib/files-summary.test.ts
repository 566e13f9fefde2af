import type { ProductFile } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import { filesSummaryOf } from './files-summary';

const makeFile = (fileName: string, sizeBytes: number): ProductFile => ({
  fileId: '00000000-0000-4000-8000-000000000001',
  fileName,
  sizeBytes,
  kind: 'document',
});

describe('what a buyer gets, on the product page', () => {
  it('names the one file', () => {
    const guide = makeFile('guide.pdf', 1024);
    expect(filesSummaryOf({ files: [guide], fileName: 'guide.pdf', fileSizeBytes: 1024 })).toEqual({
      name: 'guide.pdf',
      sizeBytes: 1024,
    });
  });

  it('counts several files and adds up their sizes', () => {
    const files = [makeFile('guide.pdf', 1024), makeFile('presets.zip', 3072)];
    expect(filesSummaryOf({ files, fileName: 'guide.pdf', fileSizeBytes: 1024 })).toEqual({
      name: '2 files',
      sizeBytes: 4096,
    });
  });
});
