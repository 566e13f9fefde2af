import { formatFileSize, UPLOADS_COUNT_FILES } from '@lockdrop/plans';
import { CheckCircle2, FileUp, X } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { labelClass } from '@/components/ui/field';
import { useUploadUsage } from '../api/get-upload-usage';
import type { UploadedFile } from '../api/upload-file';
import { useFileUpload } from '../lib/use-file-upload';

interface FileUploadProps {
  maxBytes: number;
  onUploadedChange: (file: UploadedFile | null) => void;
  /** Edit screen's file list: what this upload is for ('Add a file', 'Replace guide.pdf'). */
  label?: string;
  /** Opened on request (the edit screen's Add file and Replace): the chooser, then Upload, take focus. */
  autoFocus?: boolean;
}

export function FileUpload({ maxBytes, onUploadedChange, label, autoFocus }: FileUploadProps) {
  const id = useId();
  const { state, choose, upload, cancel, remove } = useFileUpload(maxBytes, onUploadedChange);
  const usage = useUploadUsage().data;
  const limit = `Any file type, up to ${formatFileSize(maxBytes)} on your plan.`;
  const used =
    usage?.limit != null ? `${usage.used} of ${usage.limit} uploads used this month.` : null;

  return (
    <div>
      <span className={labelClass} id={`${id}-label`}>
        {label ?? 'File'}
        {!label && <span className="text-rose-600"> *</span>}
      </span>
      {state.phase === 'empty' && (
        <label
          htmlFor={`${id}-input`}
          className="mt-2 flex cursor-pointer flex-col items-center rounded-xl border-2 border-dashed border-slate-300 px-6 py-8 text-center transition-colors hover:border-indigo-400 hover:bg-indigo-50/40 focus-within:border-indigo-500"
        >
          <FileUp className="size-8 text-indigo-500" aria-hidden="true" />
          <span className="mt-3 text-sm font-semibold text-indigo-700">Choose a file</span>
          <span className="mt-1 text-xs text-slate-500">{limit}</span>
          {used && (
            <span className="mt-0.5 text-xs text-slate-500">
              {used} {UPLOADS_COUNT_FILES}
            </span>
          )}
          <input
            id={`${id}-input`}
            type="file"
            aria-label="Choose a file"
            autoFocus={autoFocus}
            className="sr-only"
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>
      )}
      {state.phase === 'selected' && (
        <FileRow name={state.file.name} size={state.file.size}>
          <Button size="sm" onClick={() => void upload()} autoFocus={autoFocus}>
            Upload
          </Button>
          <RemoveButton onClick={remove} label={`Remove ${state.file.name}`} />
        </FileRow>
      )}
      {state.phase === 'uploading' && (
        <FileRow name={state.file.name} size={state.file.size}>
          <Button size="sm" variant="secondary" onClick={cancel}>
            Cancel upload
          </Button>
        </FileRow>
      )}
      {state.phase === 'uploading' && (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={state.percent}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full bg-indigo-600 transition-[width]"
              style={{ width: `${state.percent}%` }}
            />
          </div>
          <p className="mt-1 text-xs text-slate-600">Uploading… {state.percent}%</p>
        </div>
      )}
      {state.phase === 'uploaded' && (
        <FileRow name={state.uploaded.fileName} size={state.uploaded.sizeBytes} done>
          <RemoveButton onClick={remove} label={`Remove ${state.uploaded.fileName}`} />
        </FileRow>
      )}
    </div>
  );
}

function FileRow({
  name,
  size,
  done = false,
  children,
}: {
  name: string;
  size: number;
  done?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="mt-2 flex flex-wrap items-center gap-3 rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200">
      {done && <CheckCircle2 className="size-5 flex-none text-emerald-600" aria-label="Uploaded" />}
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900">{name}</p>
        <p className="text-xs text-slate-500">{formatFileSize(size)}</p>
      </div>
      <div className="flex items-center gap-2">{children}</div>
    </div>
  );
}

function RemoveButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded-lg p-2 text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <X className="size-4" aria-hidden="true" />
    </button>
  );
}
