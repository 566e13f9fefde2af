import { previewImagePath } from '@lockdrop/contracts';
import { formatFileSize } from '@lockdrop/plans';
import { FileArchive, FileAudio, FileText, FileVideo, Image, Lock, LockOpen } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import { usePreviewState } from '../api/get-preview';
import type { FileKind, ProductDetail } from '../types';

const KIND_ICONS = {
  image: Image,
  pdf: FileText,
  video: FileVideo,
  audio: FileAudio,
  document: FileArchive,
} as const;
const KIND_LABELS: Record<FileKind, string> = {
  image: 'Image',
  pdf: 'PDF document',
  video: 'Video',
  audio: 'Audio',
  document: 'Document',
};

interface ProductPreviewProps {
  product: ProductDetail;
  /** Scrolls to the purchase card. */
  onPurchaseNow: () => void;
  /** A buyer's download buttons: the preview then shows the content unlocked (spec §4). */
  unlocked?: ReactNode;
}

/** Spec §4 Preview: the server-blurred image under a lock, or a 'not available' card. */
export function ProductPreview({ product, onPurchaseNow, unlocked }: ProductPreviewProps) {
  if (unlocked) return <UnlockedContent product={product}>{unlocked}</UnlockedContent>;
  return <LockedPreview product={product} onPurchaseNow={onPurchaseNow} />;
}

/** Spec §4: once purchased, no blur and no lock — 'Full access unlocked' and Download File. */
function UnlockedContent({ product, children }: { product: ProductDetail; children: ReactNode }) {
  const Icon = KIND_ICONS[product.fileKind];
  return (
    <Frame>
      <div className="flex h-full flex-col items-center justify-center px-6 text-center">
        <span className="relative flex size-16 items-center justify-center rounded-2xl bg-white shadow ring-1 ring-slate-200">
          <Icon className="size-8 text-indigo-600" aria-hidden="true" />
          <LockOpen
            className="absolute -right-2 -bottom-2 size-6 rounded-full bg-emerald-600 p-1 text-white"
            aria-hidden="true"
          />
        </span>
        <p className="mt-4 font-semibold text-slate-900">Full access unlocked</p>
        <p className="mt-1 text-xs text-slate-500">
          {KIND_LABELS[product.fileKind]} · {product.fileName} ·{' '}
          {formatFileSize(product.fileSizeBytes)}
        </p>
        <div className="mt-5 w-full max-w-sm">{children}</div>
      </div>
    </Frame>
  );
}

function LockedPreview({ product, onPurchaseNow }: Omit<ProductPreviewProps, 'unlocked'>) {
  const preview = usePreviewState(product.id);
  const [imageFailed, setImageFailed] = useState(false);
  const status = preview.data?.status;
  // A failure while the status was unknown says nothing yet; a new status gets a fresh try.
  useEffect(() => setImageFailed(false), [status]);
  useEffect(() => {
    if (preview.isError || (imageFailed && status === 'ready'))
      notify.error('Failed to load preview');
  }, [preview.isError, imageFailed, status]);

  // Shown while the status is still loading too: the image is usually ready, the share page
  // already asked the browser to fetch it, and it is the page's largest paint (Lighthouse).
  const showImage =
    product.previewEnabled && !imageFailed && (status === 'ready' || preview.isPending);
  if (showImage) {
    return (
      <Frame>
        <img
          src={previewImagePath(product)}
          alt={`Blurred preview of ${product.title}`}
          onError={() => setImageFailed(true)}
          className="h-full w-full object-cover"
        />
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-slate-900/25">
          <span className="flex size-14 items-center justify-center rounded-full bg-white/90 shadow-lg">
            <Lock className="size-6 text-indigo-700" aria-hidden="true" />
          </span>
          <span className="rounded-full bg-slate-900/70 px-3 py-1 text-sm font-medium text-white">
            Preview with {product.previewBlurPercentage}% blur
          </span>
        </div>
      </Frame>
    );
  }
  if (product.previewEnabled && (preview.isPending || status === 'pending')) {
    return (
      <Frame>
        <div
          className="flex h-full flex-col items-center justify-center gap-3 text-slate-500"
          role="status"
        >
          <span
            className="size-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600"
            aria-hidden="true"
          />
          Preparing preview…
        </div>
      </Frame>
    );
  }
  const Icon = KIND_ICONS[product.fileKind];
  return (
    <Frame>
      <div className="flex h-full flex-col items-center justify-center px-6 text-center">
        <span className="relative flex size-16 items-center justify-center rounded-2xl bg-white shadow ring-1 ring-slate-200">
          <Icon className="size-8 text-indigo-600" aria-hidden="true" />
          <Lock
            className="absolute -right-2 -bottom-2 size-6 rounded-full bg-indigo-600 p-1 text-white"
            aria-hidden="true"
          />
        </span>
        <p className="mt-4 font-semibold text-slate-900">Preview not available</p>
        <p className="mt-1 text-sm text-slate-600">Purchase to access full content</p>
        <p className="mt-3 text-xs text-slate-500">
          {KIND_LABELS[product.fileKind]} · {product.fileName} ·{' '}
          {formatFileSize(product.fileSizeBytes)}
        </p>
        <Button size="sm" className="mt-5" onClick={onPurchaseNow}>
          Purchase Now
        </Button>
      </div>
    </Frame>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="relative aspect-[4/3] w-full overflow-hidden rounded-2xl bg-gradient-to-br from-slate-100 to-indigo-50 ring-1 ring-slate-200">
      {children}
    </div>
  );
}
