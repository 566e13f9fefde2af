import { planById } from '@lockdrop/plans';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import {
  REAUTHENTICATION_REQUIRED,
  ReauthenticateDialog,
  useActing,
  useSession,
} from '@/features/auth';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { API_KEY_SCOPES, useCreateApiKey, type ApiKeyScope } from '../api/api-keys';

/**
 * Name, mode, scopes as checkboxes and an optional expiry; hands the one-time secret up. A key
 * outlives the session that made it, so identity asks a session that has not proved who it is
 * recently to do so first (403 `reauthentication_required`): the dialog asks, then the same key
 * is requested again.
 */
export function CreateApiKeyForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const { profile } = useSession();
  const acting = useActing();
  // The profile is the person's own; acting for a store, its plan is not known here, so live
  // stays open and the server answers by the store's plan (plan_required, shown as an error).
  const liveAllowed = acting ? true : profile ? planById(profile.plan).apiAccess : false;
  const create = useCreateApiKey();
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [error, setError] = useState<string | null>(null);
  type KeyRequest = Parameters<typeof create.mutate>[0];
  const [awaitingProof, setAwaitingProof] = useState<KeyRequest | null>(null);

  function send(request: KeyRequest) {
    create.mutate(request, {
      onSuccess: (created) => {
        setScopes([]);
        onCreated(created.secret);
      },
      onError: (failure) =>
        failure instanceof ApiError && failure.code === REAUTHENTICATION_REQUIRED
          ? setAwaitingProof(request)
          : notify.error(failure, 'Could not create the key'),
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const expires = String(form.get('expiresOn') ?? '');
    if (scopes.length === 0) return setError('Choose at least one scope');
    setError(null);
    send({
      name: String(form.get('name') ?? ''),
      mode: form.get('mode') === 'live' ? 'live' : 'test',
      scopes,
      // The end of the chosen day, in the seller's time zone.
      expiresAt: expires ? new Date(`${expires}T23:59:59`).toISOString() : null,
    });
  }

  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));

  return (
    <>
      <form onSubmit={submit} className="space-y-4" aria-label="Create an API key">
        <TextField label="Key name" name="name" required maxLength={100} placeholder="Books sync" />
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Mode</legend>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input type="radio" name="mode" value="test" defaultChecked /> Test (sandbox data only)
          </label>
          <label className="mt-1 flex items-center gap-2 text-sm">
            <input type="radio" name="mode" value="live" disabled={!liveAllowed} /> Live
            {!liveAllowed && <span className="text-slate-500">— on the Business plan</span>}
          </label>
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Scopes</legend>
          <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2">
            {API_KEY_SCOPES.map((scope) => (
              <label key={scope} className="flex items-center gap-2 font-mono text-sm">
                <input
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(event) => toggle(scope, event.target.checked)}
                />
                {scope}
              </label>
            ))}
          </div>
          {error && <p className="mt-2 text-sm text-rose-700">{error}</p>}
        </fieldset>
        <TextField
          label="Expires on (optional)"
          name="expiresOn"
          type="date"
          min={new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}
        />
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating...' : 'Create key'}
        </Button>
      </form>
      <ReauthenticateDialog
        open={awaitingProof !== null}
        purpose="create an API key"
        onCancel={() => setAwaitingProof(null)}
        onConfirmed={() => {
          const request = awaitingProof;
          setAwaitingProof(null);
          if (request) send(request);
        }}
      />
    </>
  );
}
