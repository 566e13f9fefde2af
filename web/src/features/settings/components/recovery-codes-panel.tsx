import { Copy, Download, KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';

const asText = (codes: string[]) =>
  [
    'Lockdrop two-factor recovery codes',
    'Each code signs you in once if you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');

/**
 * The ten recovery codes, shown once (identity keeps only their hashes): the seller copies or
 * downloads them, then says they are saved.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(asText(codes));
      notify.success('Recovery codes copied');
    } catch {
      notify.error('Could not copy the codes — select them and copy them by hand');
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([asText(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'lockdrop-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section
      aria-labelledby="recovery-codes-title"
      className="space-y-4 rounded-xl bg-amber-50 p-5 ring-1 ring-amber-200"
    >
      <h3
        id="recovery-codes-title"
        className="flex items-center gap-2 text-base font-semibold text-slate-900"
      >
        <KeyRound className="size-5" aria-hidden="true" /> Save your recovery codes
      </h3>
      <p className="text-sm text-slate-700">
        If you lose your phone, each code signs you in once instead of a code from your
        authenticator app. Keep them somewhere safe and offline: this is the only time we show them.
      </p>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-2 font-mono text-sm text-slate-900 sm:grid-cols-2"
      >
        {codes.map((code) => (
          <li
            key={code}
            data-testid="recovery-code"
            className="rounded-md bg-white px-3 py-1.5 ring-1 ring-slate-200"
          >
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          <Copy className="size-4" aria-hidden="true" /> Copy codes
        </Button>
        <Button type="button" variant="secondary" onClick={download}>
          <Download className="size-4" aria-hidden="true" /> Download
        </Button>
        <Button type="button" onClick={onDone}>
          I&apos;ve saved my codes
        </Button>
      </div>
    </section>
  );
}
