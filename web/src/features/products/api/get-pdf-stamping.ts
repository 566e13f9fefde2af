import type { PdfStamping } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/**
 * GET /api/uploads/:fileId/pdf-stamping (delivery, the file's owner): whether buyers get this
 * PDF stamped with their e-mail. The first ask stamps a sample copy, so it can take a moment.
 */
export const getPdfStamping = (fileId: string) =>
  api<PdfStamping>(`/api/uploads/${encodeURIComponent(fileId)}/pdf-stamping`);

export const pdfStampingQueryOptions = (fileId: string) =>
  queryOptions({
    queryKey: ['uploads', fileId, 'pdf-stamping'],
    queryFn: () => getPdfStamping(fileId),
    // A stored file never changes, so neither does the answer.
    staleTime: Infinity,
  });

/** Asked only while `fileId` is set (the option is on and the file is a PDF). */
export const usePdfStamping = (fileId: string | null) =>
  useQuery({ ...pdfStampingQueryOptions(fileId ?? ''), enabled: fileId !== null });
