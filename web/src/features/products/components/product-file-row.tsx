import type { ProductFile } from '@lockdrop/contracts';
import { formatFileSize } from '@lockdrop/plans';
import { ArrowDown, ArrowUp } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { KIND_LABELS } from '../lib/product-files';

interface ProductFileRowProps {
  file: ProductFile;
  /** 1-based place in the list, and the list's length. */
  position: number;
  count: number;
  /** The name shared by every row's "Preview from this file" radio. */
  previewGroup: string;
  isPreview: boolean;
  /** Uploaded on this screen, not saved yet. */
  isNew: boolean;
  onPreview: () => void;
  onMove: (offset: -1 | 1) => void;
  onReplace: () => void;
  onRemove: () => void;
  /** The uploader, while it is open to replace this file. */
  children?: ReactNode;
}

const iconButtonClass =
  'rounded-lg p-2 text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent';

/** One file of the edit screen's list; `data-control` lets the list put focus back after a move. */
export function ProductFileRow({
  file,
  position,
  count,
  previewGroup,
  isPreview,
  isNew,
  onPreview,
  onMove,
  onReplace,
  onRemove,
  children,
}: ProductFileRowProps) {
  return (
    <li
      data-file-id={file.fileId}
      className="rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-center gap-3">
        <span className="w-5 text-sm font-semibold text-slate-500 tabular-nums" aria-hidden="true">
          {position}.
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900">{file.fileName}</p>
          <p className="text-xs text-slate-600">
            {formatFileSize(file.sizeBytes)} · {KIND_LABELS[file.kind]}
            {isNew && <span className="font-medium text-emerald-700"> · New</span>}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-1">
          <button
            type="button"
            data-control="up"
            aria-label={`Move ${file.fileName} up`}
            disabled={position === 1}
            onClick={() => onMove(-1)}
            className={iconButtonClass}
          >
            <ArrowUp className="size-4" aria-hidden="true" />
          </button>
          <button
            type="button"
            data-control="down"
            aria-label={`Move ${file.fileName} down`}
            disabled={position === count}
            onClick={() => onMove(1)}
            className={iconButtonClass}
          >
            <ArrowDown className="size-4" aria-hidden="true" />
          </button>
          <Button
            size="sm"
            variant="secondary"
            data-control="replace"
            aria-label={`Replace ${file.fileName}`}
            onClick={onReplace}
          >
            Replace
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove ${file.fileName}`}
            disabled={count === 1}
            onClick={onRemove}
          >
            Remove
          </Button>
        </div>
      </div>
      <label className="mt-2 inline-flex cursor-pointer items-center gap-2 pl-8 text-sm text-slate-700">
        <input
          type="radio"
          name={previewGroup}
          checked={isPreview}
          onChange={onPreview}
          aria-label={`Preview from this file: ${file.fileName}`}
          className="size-4 border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        Preview from this file
      </label>
      {children}
    </li>
  );
}
