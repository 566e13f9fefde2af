import { AlertTriangle } from 'lucide-react';
import { useId } from 'react';
import { usePdfStamping } from '../api/get-pdf-stamping';

interface StampPdfsProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The PDF buyers will get. */
  fileId: string;
}

/**
 * The product's `stampPdfs` option. While it is on, delivery is asked whether this PDF can be
 * stamped (an encrypted or damaged one cannot), so the seller learns that buyers would get it
 * unstamped before anyone buys.
 */
export function StampPdfs({ checked, onChange, fileId }: StampPdfsProps) {
  const id = useId();
  const stamping = usePdfStamping(checked ? fileId : null);
  const warning =
    stamping.data && stamping.data.status !== 'available' ? stamping.data.message : null;
  return (
    <div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={`${id}-hint`}
          className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        Stamp each buyer's copy with their e-mail
      </label>
      <p id={`${id}-hint`} className="mt-1 pl-6 text-sm text-slate-600">
        Every page of the PDF gets 'Licensed to &lt;buyer's e-mail&gt;' in its footer. Discourages
        sharing.
      </p>
      {checked && (
        <div role="status" className="pl-6">
          {stamping.isLoading && <p className="mt-2 text-sm text-slate-500">Checking this PDF…</p>}
          {warning && (
            <p className="mt-2 flex items-start gap-1.5 text-sm text-amber-700">
              <AlertTriangle className="mt-0.5 size-4 flex-none" aria-hidden="true" /> {warning}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
