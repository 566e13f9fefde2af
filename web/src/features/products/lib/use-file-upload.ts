import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { deleteUpload, uploadFile, type UploadedFile } from '../api/upload-file';
import { uploadUsageQueryOptions } from '../api/get-upload-usage';

const MB = 1024 * 1024;
const EXPLAINED = new Set(['file_too_large', 'upload_quota_exceeded', 'file_empty']);

export const EMPTY_FILE_MESSAGE =
  'This file is empty (0 bytes): choose a file with something in it';

export const fileTooLargeMessage = (maxBytes: number) =>
  `File size must be less than ${Math.round(maxBytes / MB)}MB`;

export type UploadState =
  | { phase: 'empty' }
  | { phase: 'selected'; file: File }
  | { phase: 'uploading'; file: File; percent: number }
  | { phase: 'uploaded'; uploaded: UploadedFile };

/** Spec §4 upload flow: choose → Upload (real progress, cancellable) → uploaded → remove. */
export function useFileUpload(maxBytes: number, onUploaded: (file: UploadedFile | null) => void) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<UploadState>({ phase: 'empty' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  function choose(file: File | undefined) {
    if (!file) return;
    // Refused at once, with the reason: an empty file would only fail after the upload.
    if (file.size === 0) {
      notify.error(EMPTY_FILE_MESSAGE);
      return;
    }
    if (file.size > maxBytes) {
      notify.error(fileTooLargeMessage(maxBytes));
      return;
    }
    setState({ phase: 'selected', file });
  }

  async function upload() {
    if (state.phase !== 'selected') return;
    const { file } = state;
    const controller = new AbortController();
    abort.current = controller;
    setState({ phase: 'uploading', file, percent: 0 });
    try {
      const uploaded = await uploadFile(file, {
        signal: controller.signal,
        onProgress: (percent) => setState({ phase: 'uploading', file, percent }),
      });
      setState({ phase: 'uploaded', uploaded });
      onUploaded(uploaded);
      notify.success('File uploaded successfully!');
      void queryClient.invalidateQueries({ queryKey: uploadUsageQueryOptions().queryKey });
    } catch (error) {
      if (controller.signal.aborted) return;
      setState({ phase: 'selected', file });
      // The size limit and the monthly quota say what to do next; anything else is the spec's text.
      const explained = error instanceof ApiError && EXPLAINED.has(error.code);
      notify.error(explained ? error : 'Failed to upload file');
    } finally {
      if (abort.current === controller) abort.current = null;
    }
  }

  function cancel() {
    abort.current?.abort();
    setState((current) =>
      current.phase === 'uploading' ? { phase: 'selected', file: current.file } : current,
    );
  }

  function remove() {
    if (state.phase === 'uploaded') {
      // Best effort: an unused upload only costs storage until cleanup.
      void deleteUpload(state.uploaded.id).catch(() => undefined);
      onUploaded(null);
    }
    setState({ phase: 'empty' });
  }

  return { state, choose, upload, cancel, remove };
}
