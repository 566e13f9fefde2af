import type { ProductFile } from '@lockdrop/contracts';
import { formatFileSize } from '@lockdrop/plans';
import { Download, FileArchive } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownload, useZipDownload } from '../api/create-download';

/** One row's button in a list of several files: 'Download', named after its file. */
export function FileDownloadButton({
  purchaseId,
  file,
}: {
  purchaseId: string;
  file: ProductFile;
}) {
  const download = useDownload();
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={`Download ${file.fileName}`}
      disabled={download.isPending}
      onClick={() => download.mutate({ purchaseId, fileId: file.fileId })}
    >
      <Download className="size-4" aria-hidden="true" />
      {download.isPending ? 'Preparing…' : 'Download'}
    </Button>
  );
}

interface ZipDownloadButtonProps {
  purchaseId: string;
  sizeBytes: number;
  size: 'sm' | 'lg';
  className?: string;
}

/** 'Download all (ZIP)': every file of the purchase in one go. */
export function ZipDownloadButton({
  purchaseId,
  sizeBytes,
  size,
  className,
}: ZipDownloadButtonProps) {
  const download = useZipDownload();
  return (
    // One line on a 375 px phone (it wrapped to three, issue 29): nowrap, the size in small type.
    <Button
      size={size}
      className={`whitespace-nowrap ${className ?? ''}`}
      disabled={download.isPending}
      onClick={() => download.mutate(purchaseId)}
    >
      <FileArchive className="size-4" aria-hidden="true" />
      {download.isPending ? 'Preparing download…' : 'Download all (ZIP)'}
      {!download.isPending && (
        <span className="text-sm font-normal opacity-80">({formatFileSize(sizeBytes)})</span>
      )}
    </Button>
  );
}
