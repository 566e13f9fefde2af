import {
  BUYER_UPDATE_INTERVAL_MINUTES,
  MAX_FILES_PER_PRODUCT,
  type FileKind,
  type ProductFile,
  type UpdateProductInput,
  type UploadedFile,
} from '@lockdrop/contracts';
import type { Product, ProductInput } from '../types';
import type { ChosenFile } from './product-form';

/** The edit screen's file list as the seller rearranges it, before Save sends it. */
export interface FilesDraft {
  files: ProductFile[];
  /** The file the preview is made from: always one of `files`. */
  previewFileId: string;
  /** "Tell my buyers": sent only while the change adds or replaces a file. */
  notifyBuyers: boolean;
}

/** The part of the PATCH body this list owns; empty when the seller left the files alone. */
export type FilesPatch = Pick<UpdateProductInput, 'files' | 'fileId' | 'notifyBuyers'>;

export const draftOf = (product: Pick<Product, 'files' | 'fileId'>): FilesDraft => ({
  files: product.files,
  previewFileId: product.fileId,
  notifyBuyers: false,
});

export const productFileOf = (upload: UploadedFile): ProductFile => ({
  fileId: upload.id,
  fileName: upload.fileName,
  sizeBytes: upload.sizeBytes,
  kind: upload.kind,
});

export const canAddFile = (draft: FilesDraft) => draft.files.length < MAX_FILES_PER_PRODUCT;

const indexOf = (draft: FilesDraft, fileId: string) =>
  draft.files.findIndex((file) => file.fileId === fileId);

/** Swaps a file with its neighbour `offset` (-1 up, +1 down) places away. */
export function moveFile(draft: FilesDraft, fileId: string, offset: -1 | 1): FilesDraft {
  const index = indexOf(draft, fileId);
  const target = index + offset;
  if (index === -1 || target < 0 || target >= draft.files.length) return draft;
  const files = [...draft.files];
  [files[index], files[target]] = [files[target]!, files[index]!];
  return { ...draft, files };
}

/** A new upload takes a file's place; a preview made from that file follows it. */
export function replaceFile(draft: FilesDraft, fileId: string, upload: ProductFile): FilesDraft {
  if (indexOf(draft, fileId) === -1) return draft;
  const files = draft.files.map((file) => (file.fileId === fileId ? upload : file));
  const previewFileId = draft.previewFileId === fileId ? upload.fileId : draft.previewFileId;
  return { ...draft, files, previewFileId };
}

/** Drops a file (a product keeps at least one); a preview made from it falls to the first. */
export function removeFile(draft: FilesDraft, fileId: string): FilesDraft {
  if (indexOf(draft, fileId) === -1 || draft.files.length === 1) return draft;
  const files = draft.files.filter((file) => file.fileId !== fileId);
  const previewFileId = draft.previewFileId === fileId ? files[0]!.fileId : draft.previewFileId;
  return { ...draft, files, previewFileId };
}

export const addFile = (draft: FilesDraft, upload: ProductFile): FilesDraft =>
  canAddFile(draft) ? { ...draft, files: [...draft.files, upload] } : draft;

/** Whether the draft holds a file the product does not have yet (added, or a replacement). */
export const addsFile = (saved: Pick<Product, 'files'>, draft: FilesDraft) =>
  draft.files.some((file) => !saved.files.some((kept) => kept.fileId === file.fileId));

/** The time "Tell my buyers" may be used again, or null when it may be used now. */
export function tellBuyersAvailableAt(buyersToldAt: string | null, now: Date): Date | null {
  if (buyersToldAt === null) return null;
  const availableAt = new Date(
    new Date(buyersToldAt).getTime() + BUYER_UPDATE_INTERVAL_MINUTES * 60_000,
  );
  return availableAt > now ? availableAt : null;
}

/** "in 1 minute" / "in 23 minutes": whole minutes, rounded up so "in 0 minutes" never shows. */
export function minutesUntil(time: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((time.getTime() - now.getTime()) / 60_000));
  return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * What Save sends about the files: nothing when the seller left them alone; the whole list when
 * its order or contents changed; the preview source when it changed, always with the list, since
 * `fileId` alone means "replace the preview file with this upload". "Tell my buyers" goes only
 * with a new file, and only when it is allowed again.
 */
export function filesPatchOf(
  saved: Pick<Product, 'files' | 'fileId' | 'buyersToldAt'>,
  draft: FilesDraft,
  now: Date,
): FilesPatch {
  const ids = draft.files.map((file) => file.fileId);
  const previewChanged = draft.previewFileId !== saved.fileId;
  const listChanged =
    ids.length !== saved.files.length || ids.some((id, at) => id !== saved.files[at]?.fileId);
  const notifyBuyers =
    draft.notifyBuyers &&
    addsFile(saved, draft) &&
    tellBuyersAvailableAt(saved.buyersToldAt, now) === null;
  return {
    ...(listChanged || previewChanged ? { files: ids.map((fileId) => ({ fileId })) } : {}),
    ...(previewChanged ? { fileId: draft.previewFileId } : {}),
    ...(notifyBuyers ? { notifyBuyers: true } : {}),
  };
}

/** Stamping is offered while the list holds a PDF; its check runs on the first one. */
export function firstPdfOf(draft: FilesDraft): ChosenFile | null {
  const pdf = draft.files.find((file) => file.kind === 'pdf');
  return pdf ? { id: pdf.fileId, kind: pdf.kind } : null;
}

/** The edit screen's PATCH body: the form's fields (its upload is create's) and the list's part. */
export const updateOf = (
  { fileId: _createUpload, ...fields }: ProductInput,
  files: FilesPatch,
): UpdateProductInput => ({ ...fields, ...files });

export const KIND_LABELS: Record<FileKind, string> = {
  image: 'Image',
  pdf: 'PDF',
  video: 'Video',
  audio: 'Audio',
  document: 'Document',
};
