import { formatFileSize } from '@lockdrop/plans';
import { Download } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useDownload } from '../api/create-download';

interface DownloadButtonProps {
  purchaseId: string;
  /** One file of the purchase; without it, the product's main file. */
  fileId?: string;
  /** Shown before the download starts, so a buyer on a slow connection knows what is coming. */
  sizeBytes?: number | null;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/** A purchase's only file: 'Download File' (spec §2). */
export function DownloadButton({
  purchaseId,
  fileId,
  sizeBytes,
  size = 'md',
  className = '',
}: DownloadButtonProps) {
  const download = useDownload();
  return (
    <Button
      size={size}
      className={className}
      disabled={download.isPending}
      onClick={() => download.mutate({ purchaseId, fileId })}
    >
      <Download className="size-4" aria-hidden="true" />
      {download.isPending ? 'Preparing download…' : 'Download File'}
      {sizeBytes != null && !download.isPending && (
        <span className="font-normal opacity-80">({formatFileSize(sizeBytes)})</span>
      )}
    </Button>
  );
}
