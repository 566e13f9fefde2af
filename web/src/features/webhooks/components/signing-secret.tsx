import { Copy } from 'lucide-react';
import { buttonClass } from '@/components/ui/button';
import { notify } from '@/lib/toast';

async function copySecret(secret: string) {
  try {
    await navigator.clipboard.writeText(secret);
    notify.success('Signing secret copied');
  } catch {
    notify.error('Could not copy the secret — select it and copy it by hand');
  }
}

/** A `whsec_…` secret the seller asked to see (at creation, on reveal or rotation), with Copy. */
export function SigningSecret({ secret, note }: { secret: string; note?: string }) {
  return (
    <div className="space-y-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-slate-600">Signing secret</span>
        <code className="rounded bg-slate-100 px-2 py-1 break-all" aria-label="Signing secret">
          {secret}
        </code>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={() => void copySecret(secret)}
        >
          <Copy className="size-4" aria-hidden="true" /> Copy
        </button>
      </div>
      {note && <p className="text-xs text-slate-500">{note}</p>}
    </div>
  );
}
