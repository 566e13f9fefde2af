import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import { useApiKeys, useRevokeApiKey, type ApiKey } from '../api/api-keys';
import { CreateApiKeyForm } from './create-api-key-form';
import { SettingsCard } from './settings-card';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The secret, this once: after the page changes it cannot be shown again. */
function NewSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      notify.success('API key copied');
    } catch {
      notify.error('Could not copy the key — select it and copy it by hand');
    }
  }
  return (
    <div role="status" className="rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200">
      <p className="text-sm font-medium text-amber-900">
        Copy your new key now. You will not be able to see it again.
      </p>
      <div className="mt-3 flex gap-2">
        <input
          readOnly
          aria-label="New API key"
          value={secret}
          className="w-full rounded-lg bg-white px-3 py-2 font-mono text-sm ring-1 ring-slate-300"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
      <Button variant="ghost" size="sm" className="mt-2" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function RevokeButton({ apiKey }: { apiKey: ApiKey }) {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const revoke = useRevokeApiKey();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (open && dialog && !dialog.open) dialog.showModal();
    if (!open && dialog?.open) dialog.close();
  }, [open]);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={`Revoke ${apiKey.name}`}
      >
        Revoke
      </Button>
      {open && (
        <dialog
          ref={dialogRef}
          aria-labelledby={titleId}
          onClose={() => setOpen(false)}
          className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl p-6 text-left shadow-xl backdrop:bg-slate-900/40"
        >
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            Revoke {apiKey.name}?
          </h2>
          <p className="mt-3 text-sm text-slate-700">
            Scripts using {apiKey.prefix}… stop working within seconds. This cannot be undone.
          </p>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="ghost" onClick={() => setOpen(false)} disabled={revoke.isPending}>
              Cancel
            </Button>
            <Button
              disabled={revoke.isPending}
              onClick={() =>
                revoke.mutate(apiKey.id, {
                  onSuccess: () => {
                    setOpen(false);
                    notify.success('API key revoked');
                  },
                  onError: (error) => notify.error(error, 'Could not revoke the key'),
                })
              }
            >
              {revoke.isPending ? 'Revoking...' : 'Revoke key'}
            </Button>
          </div>
        </dialog>
      )}
    </>
  );
}

function ApiKeyRow({ apiKey }: { apiKey: ApiKey }) {
  return (
    <li className="flex items-center gap-4 py-4" data-api-key={apiKey.name}>
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium text-slate-900">
          {apiKey.name}{' '}
          <span className="ml-1 rounded-full bg-slate-100 px-2 py-0.5 text-xs">{apiKey.mode}</span>
        </p>
        <p className="font-mono text-xs text-slate-500">{apiKey.prefix}…</p>
        <p className="text-slate-500">
          {apiKey.lastUsedAt
            ? `Last used ${dateTime.format(new Date(apiKey.lastUsedAt))} from ${apiKey.lastUsedIp ?? 'unknown'}`
            : 'Never used'}
          {apiKey.expiresAt && ` · expires ${dateTime.format(new Date(apiKey.expiresAt))}`}
        </p>
        <p className="text-xs text-slate-500">{apiKey.scopes.join(', ')}</p>
      </div>
      <RevokeButton apiKey={apiKey} />
    </li>
  );
}

/** Keys for the public API (`/api/v1`): live ones on Business, test ones on every plan. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <SettingsCard
      id="settings-api-keys"
      title="API keys"
      description="Let your own scripts use the Lockdrop API. Test keys see only sandbox data."
    >
      {secret ? (
        <NewSecret secret={secret} onDone={() => setSecret(null)} />
      ) : (
        <CreateApiKeyForm onCreated={setSecret} />
      )}
      {keys.isError && <p className="mt-4 text-sm text-rose-700">{keys.error.message}</p>}
      <ul className="mt-6 divide-y divide-slate-100" aria-label="API keys">
        {keys.data?.map((apiKey) => (
          <ApiKeyRow key={apiKey.id} apiKey={apiKey} />
        ))}
      </ul>
      {keys.data?.length === 0 && <p className="text-sm text-slate-500">No API keys yet.</p>}
    </SettingsCard>
  );
}
