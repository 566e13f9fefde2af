import type { ProductFile } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import type { Product } from '../types';
import { emptyInput } from './product-form';
import {
  addFile,
  addsFile,
  canAddFile,
  draftOf,
  filesPatchOf,
  firstPdfOf,
  minutesUntil,
  moveFile,
  removeFile,
  replaceFile,
  tellBuyersAvailableAt,
  updateOf,
  type FilesDraft,
} from './product-files';

let sequence = 0;
const makeFile = (fileName: string, overrides: Partial<ProductFile> = {}): ProductFile => {
  sequence += 1;
  return {
    fileId: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    fileName,
    sizeBytes: 2048,
    kind: 'document',
    ...overrides,
  };
};

type SavedFiles = Pick<Product, 'files' | 'fileId' | 'buyersToldAt'>;
const makeSaved = (files: ProductFile[], overrides: Partial<SavedFiles> = {}): SavedFiles => ({
  files,
  fileId: files[0]!.fileId,
  buyersToldAt: null,
  ...overrides,
});

const NOW = new Date('2025-06-01T12:00:00.000Z');
const namesOf = (draft: FilesDraft) => draft.files.map((file) => file.fileName);
const listOf = (...files: ProductFile[]) => files.map(({ fileId }) => ({ fileId }));

describe('the edit screen’s file list', () => {
  const guide = makeFile('guide.pdf', { kind: 'pdf' });
  const presets = makeFile('presets.zip');
  const cover = makeFile('cover.png', { kind: 'image' });
  const saved = makeSaved([guide, presets, cover]);

  it('sends nothing about files when the seller left them alone', () => {
    expect(filesPatchOf(saved, draftOf(saved), NOW)).toEqual({});
  });

  it('moves a file up or down, and not past either end', () => {
    const draft = draftOf(saved);
    expect(namesOf(moveFile(draft, presets.fileId, -1))).toEqual([
      'presets.zip',
      'guide.pdf',
      'cover.png',
    ]);
    expect(namesOf(moveFile(draft, presets.fileId, 1))).toEqual([
      'guide.pdf',
      'cover.png',
      'presets.zip',
    ]);
    expect(moveFile(draft, guide.fileId, -1)).toBe(draft);
    expect(moveFile(draft, cover.fileId, 1)).toBe(draft);
  });

  it('sends the whole new order after a reorder, and no preview change', () => {
    const draft = moveFile(draftOf(saved), cover.fileId, -1);
    expect(filesPatchOf(saved, draft, NOW)).toEqual({ files: listOf(guide, cover, presets) });
  });

  it('replaces a file in its place; a preview made from it follows the new upload', () => {
    const guide2 = makeFile('guide-v2.pdf', { kind: 'pdf' });
    const draft = replaceFile(draftOf(saved), guide.fileId, guide2);
    expect(namesOf(draft)).toEqual(['guide-v2.pdf', 'presets.zip', 'cover.png']);
    expect(filesPatchOf(saved, draft, NOW)).toEqual({
      files: listOf(guide2, presets, cover),
      fileId: guide2.fileId,
    });
  });

  it('replacing another file keeps the preview source and does not send it', () => {
    const presets2 = makeFile('presets-v2.zip');
    const draft = replaceFile(draftOf(saved), presets.fileId, presets2);
    expect(filesPatchOf(saved, draft, NOW)).toEqual({ files: listOf(guide, presets2, cover) });
  });

  it('removes a file; removing the preview source moves the preview to the first file', () => {
    expect(filesPatchOf(saved, removeFile(draftOf(saved), presets.fileId), NOW)).toEqual({
      files: listOf(guide, cover),
    });
    expect(filesPatchOf(saved, removeFile(draftOf(saved), guide.fileId), NOW)).toEqual({
      files: listOf(presets, cover),
      fileId: presets.fileId,
    });
  });

  it('never removes the only file', () => {
    const single = draftOf(makeSaved([guide]));
    expect(removeFile(single, guide.fileId)).toBe(single);
  });

  it('sends the unchanged list with a new preview source (fileId alone would replace that file)', () => {
    const draft = { ...draftOf(saved), previewFileId: cover.fileId };
    expect(filesPatchOf(saved, draft, NOW)).toEqual({
      files: listOf(guide, presets, cover),
      fileId: cover.fileId,
    });
  });

  it('adds an upload at the end, up to 20 files', () => {
    const bonus = makeFile('bonus.mp3', { kind: 'audio' });
    const draft = addFile(draftOf(saved), bonus);
    expect(filesPatchOf(saved, draft, NOW)).toEqual({
      files: listOf(guide, presets, cover, bonus),
    });

    const full = draftOf(makeSaved(Array.from({ length: 20 }, (_, at) => makeFile(`${at}.zip`))));
    expect(canAddFile(full)).toBe(false);
    expect(addFile(full, bonus)).toBe(full);
  });

  it('offers stamping on the first PDF of the list, and none without one', () => {
    expect(firstPdfOf(draftOf(saved))).toEqual({ id: guide.fileId, kind: 'pdf' });
    expect(firstPdfOf(draftOf(makeSaved([presets, cover])))).toBeNull();
  });
});

describe('Tell my buyers', () => {
  const guide = makeFile('guide.pdf', { kind: 'pdf' });
  const extra = makeFile('extra.zip');
  const saved = makeSaved([guide]);

  it('counts an added or a replacing upload as new, a reorder or removal not', () => {
    const twoFiles = makeSaved([guide, extra]);
    expect(addsFile(saved, addFile(draftOf(saved), extra))).toBe(true);
    expect(addsFile(saved, replaceFile(draftOf(saved), guide.fileId, extra))).toBe(true);
    expect(addsFile(twoFiles, moveFile(draftOf(twoFiles), extra.fileId, -1))).toBe(false);
    expect(addsFile(twoFiles, removeFile(draftOf(twoFiles), extra.fileId))).toBe(false);
  });

  it('is sent ticked with a new file', () => {
    const draft = { ...addFile(draftOf(saved), extra), notifyBuyers: true };
    expect(filesPatchOf(saved, draft, NOW)).toEqual({
      files: listOf(guide, extra),
      notifyBuyers: true,
    });
  });

  it('is not sent without a new file, even if ticked before the new file went away', () => {
    const draft = { ...draftOf(saved), notifyBuyers: true };
    expect(filesPatchOf(saved, draft, NOW)).toEqual({});
  });

  it('waits an hour after the last time buyers were told', () => {
    const toldAt = '2025-06-01T11:23:00.000Z';
    const availableAt = tellBuyersAvailableAt(toldAt, NOW);
    expect(availableAt?.toISOString()).toBe('2025-06-01T12:23:00.000Z');
    expect(minutesUntil(availableAt!, NOW)).toBe('in 23 minutes');
    expect(tellBuyersAvailableAt('2025-06-01T11:00:00.000Z', NOW)).toBeNull();
    expect(tellBuyersAvailableAt(null, NOW)).toBeNull();

    const draft = { ...addFile(draftOf(saved), extra), notifyBuyers: true };
    expect(filesPatchOf({ ...saved, buyersToldAt: toldAt }, draft, NOW)).toEqual({
      files: listOf(guide, extra),
    });
  });

  it('says "in 1 minute" for the last minute', () => {
    expect(minutesUntil(new Date(NOW.getTime() + 10_000), NOW)).toBe('in 1 minute');
  });
});

describe('the edit screen’s PATCH body', () => {
  it("drops the create screen's upload slot and adds the file list's part", () => {
    const input = { ...emptyInput, title: 'Guide', price: '5.00', fileId: null };
    const body = updateOf(input, { files: [{ fileId: 'a' }], fileId: 'a', notifyBuyers: true });
    expect(body).not.toHaveProperty('fileId', null);
    expect(body).toMatchObject({
      title: 'Guide',
      files: [{ fileId: 'a' }],
      fileId: 'a',
      notifyBuyers: true,
    });
    expect(Object.keys(updateOf(input, {}))).not.toContain('fileId');
  });
});
