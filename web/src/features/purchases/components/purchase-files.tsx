import type { ProductFile } from '@lockdrop/contracts';
import { formatFileSize } from '@lockdrop/plans';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { usePurchaseFiles } from '../api/get-purchase-files';
import { downloadChoiceOf } from '../lib/download-choice';
import { DownloadButton } from './download-button';
import { FileDownloadButton, ZipDownloadButton } from './file-download-buttons';

interface PurchaseFilesProps {
  purchaseId: string;
  /** A card on /purchases; otherwise a page's main content (success, receipt, product). */
  compact?: boolean;
}

/** Every file of a purchase, each with its Download button, and the ZIP of all when several. */
export function PurchaseFiles({ purchaseId, compact = false }: PurchaseFilesProps) {
  const answer = usePurchaseFiles(purchaseId);
  if (answer.isPending) {
    return (
      <div
        role="status"
        className={`animate-pulse rounded-xl bg-slate-100 ${compact ? 'h-10' : 'h-24'}`}
      >
        <span className="sr-only">Loading the files of this purchase…</span>
      </div>
    );
  }
  if (answer.isError) {
    const reason =
      answer.error instanceof ApiError && answer.error.status >= 400 && answer.error.status < 500
        ? answer.error.message
        : null;
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-xl bg-rose-50 px-4 py-3 text-sm text-rose-800 ring-1 ring-rose-200"
      >
        <AlertTriangle className="size-4 flex-none" aria-hidden="true" />
        <p className="min-w-0 flex-1">
          Could not load the files of this purchase.{reason && ` ${reason}`}
        </p>
        <Button
          size="sm"
          variant="secondary"
          disabled={answer.isFetching}
          onClick={() => void answer.refetch()}
        >
          Try again
        </Button>
      </div>
    );
  }
  const choice = downloadChoiceOf(answer.data);
  if (choice.kind === 'none')
    return <p className="text-sm text-slate-600">This purchase has no files to download.</p>;
  if (choice.kind === 'single') {
    const { file } = choice;
    return compact ? (
      <div className="flex flex-wrap items-center gap-3">
        <FileName file={file} />
        <DownloadButton purchaseId={purchaseId} fileId={file.fileId} size="sm" />
      </div>
    ) : (
      <div>
        <FileName file={file} />
        <DownloadButton
          purchaseId={purchaseId}
          fileId={file.fileId}
          size="lg"
          className="mt-3 w-full"
        />
      </div>
    );
  }
  return (
    <div>
      <ul
        aria-label="Files"
        className="divide-y divide-slate-100 rounded-xl bg-slate-50 px-4 ring-1 ring-slate-200"
      >
        {choice.files.map((file) => (
          <li key={file.fileId} className="flex flex-wrap items-center gap-3 py-2.5">
            <FileName file={file} />
            <FileDownloadButton purchaseId={purchaseId} file={file} />
          </li>
        ))}
      </ul>
      <ZipDownloadButton
        purchaseId={purchaseId}
        sizeBytes={choice.zip.sizeBytes}
        size={compact ? 'sm' : 'lg'}
        className={compact ? 'mt-3' : 'mt-4 w-full'}
      />
    </div>
  );
}

function FileName({ file }: { file: ProductFile }) {
  return (
    <p className="min-w-0 flex-1 text-sm">
      <span className="block truncate font-medium text-slate-900">{file.fileName}</span>
      <span className="text-slate-500">{formatFileSize(file.sizeBytes)}</span>
    </p>
  );
}
