import { useState } from 'react';
import { Button } from '@/components/ui/button';
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
 * carries secrets; one shows here only after the seller asked for it.
 */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const reveal = useRevealWebhookSecret();
  const test = useSendTestWebhook();
  const remove = useDeleteWebhookEndpoint();
  const [secret, setSecret] = useState<string | null>(null);
  const onError = (error: Error) => notify.error(error);

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
          onClick={() =>
            secret
              ? setSecret(null)
              : reveal.mutate(endpoint.id, {
                  onSuccess: (revealed) => setSecret(revealed.secret),
                  onError,
                })
          }
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
            rotate.mutate(endpoint.id, {
              onSuccess: (rotated) => {
                setSecret(rotated.secret);
                notify.success('Secret rotated');
              },
              onError,
            });
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
    </li>
  );
}
