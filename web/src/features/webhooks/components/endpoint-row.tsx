import { Copy } from 'lucide-react';
import { Button, buttonClass } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import {
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhookEndpoint,
  type WebhookEndpoint,
} from '../api/webhooks';

async function copySecret(secret: string) {
  try {
    await navigator.clipboard.writeText(secret);
    notify.success('Signing secret copied');
  } catch {
    notify.error('Could not copy the secret — select it and copy it by hand');
  }
}

/** One endpoint: its secret (with Copy), on/off, rotate, test, delete. */
export function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const test = useSendTestWebhook();
  const remove = useDeleteWebhookEndpoint();
  const onError = (error: Error) => notify.error(error);

  return (
    <li className="space-y-3 py-4" data-endpoint={endpoint.url}>
      <div className="flex flex-wrap items-center gap-2">
        <p className="min-w-0 flex-1 font-medium break-all text-slate-900">{endpoint.url}</p>
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
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-slate-600">Signing secret</span>
        <code className="rounded bg-slate-100 px-2 py-1 break-all" aria-label="Signing secret">
          {endpoint.secret}
        </code>
        <button
          type="button"
          className={buttonClass('secondary', 'sm')}
          onClick={() => void copySecret(endpoint.secret)}
        >
          <Copy className="size-4" aria-hidden="true" /> Copy
        </button>
      </div>
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
          disabled={rotate.isPending}
          onClick={() => {
            if (!window.confirm('Rotate the secret? The old one keeps signing for 24 hours.'))
              return;
            rotate.mutate(endpoint.id, {
              onSuccess: () => notify.success('Secret rotated'),
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
