import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { REAUTHENTICATION_REQUIRED, ReauthenticateDialog } from '@/features/auth';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import {
  useDeleteWebhookEndpoint,
  useRevealWebhookSecret,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhookEndpoint,
  type WebhookEndpoint,
} from '../api/webhooks';
import { SigningSecret } from './signing-secret';

/**
 * One endpoint: its mode, on/off, reveal or rotate its secret, test, delete. The list never
 * carries secrets; one shows here only after the seller asked for it, and only to a session that
 * proved who it is recently (the worker answers 403 `reauthentication_required`: the dialog asks
 * for the password or code, then the action runs again).
 */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const reveal = useRevealWebhookSecret();
  const test = useSendTestWebhook();
  const remove = useDeleteWebhookEndpoint();
  const [secret, setSecret] = useState<string | null>(null);
  const [awaitingProof, setAwaitingProof] = useState<'reveal' | 'rotate' | null>(null);
  const onError = (error: Error) => notify.error(error);
  const needsProof = (action: 'reveal' | 'rotate') => (error: Error) =>
    error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED
      ? setAwaitingProof(action)
      : notify.error(error);

  const revealSecret = () =>
    reveal.mutate(endpoint.id, {
      onSuccess: (revealed) => setSecret(revealed.secret),
      onError: needsProof('reveal'),
    });
  const rotateSecret = () =>
    rotate.mutate(endpoint.id, {
      onSuccess: (rotated) => {
        setSecret(rotated.secret);
        notify.success('Secret rotated');
      },
      onError: needsProof('rotate'),
    });

  return (
    <li className="space-y-3 py-4" data-endpoint={endpoint.url}>
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1 font-medium break-all text-slate-900">{endpoint.url}</p>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${endpoint.mode === 'test' ? 'bg-amber-50 text-amber-800 ring-amber-200' : 'bg-indigo-50 text-indigo-700 ring-indigo-200'}`}
        >
          {endpoint.mode === 'test' ? 'Test mode' : 'Live'}
        </span>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${endpoint.enabled ? 'bg-emerald-50 text-emerald-700 ring-emerald-200' : 'bg-slate-100 text-slate-600 ring-slate-200'}`}
        >
          {endpoint.enabled ? 'Enabled' : 'Disabled'}
        </span>
      </div>
      {endpoint.disabledReason && (
        <p className="text-sm text-rose-700">Disabled: {endpoint.disabledReason}</p>
      )}
      <p className="text-sm text-slate-600">{endpoint.events.join(', ')}</p>
      {secret && <SigningSecret secret={secret} />}
      {endpoint.previousSecretExpiresAt && (
        <p className="text-xs text-slate-500">
          The previous secret also signs until{' '}
          {new Date(endpoint.previousSecretExpiresAt).toLocaleString()}.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={update.isPending}
          onClick={() =>
            update.mutate({ id: endpoint.id, patch: { enabled: !endpoint.enabled } }, { onError })
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(endpoint.id, {
              onSuccess: () => notify.success('Test event sent'),
              onError,
            })
          }
        >
          Send test event
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={reveal.isPending}
          onClick={() => (secret ? setSecret(null) : revealSecret())}
        >
          {secret ? 'Hide secret' : 'Reveal secret'}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={rotate.isPending}
          onClick={() => {
            if (!window.confirm('Rotate the secret? The old one keeps signing for 24 hours.'))
              return;
            rotateSecret();
          }}
        >
          Rotate secret
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={remove.isPending}
          onClick={() => {
            if (!window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`))
              return;
            remove.mutate(endpoint.id, { onError });
          }}
        >
          Delete
        </Button>
      </div>
      <ReauthenticateDialog
        open={awaitingProof !== null}
        purpose={
          awaitingProof === 'rotate'
            ? "rotate this endpoint's secret"
            : "see this endpoint's secret"
        }
        onCancel={() => setAwaitingProof(null)}
        onConfirmed={() => {
          const action = awaitingProof;
          setAwaitingProof(null);
          if (action === 'rotate') rotateSecret();
          if (action === 'reveal') revealSecret();
        }}
      />
    </li>
  );
}
