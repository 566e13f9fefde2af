import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import { useRedeliverWebhook, useWebhookDeliveries, type WebhookDelivery } from '../api/webhooks';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const statusStyle: Record<WebhookDelivery['status'], string> = {
  succeeded: 'text-emerald-700',
  pending: 'text-amber-700',
  failed: 'text-rose-700',
};

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const redeliver = useRedeliverWebhook();
  return (
    <tr data-delivery={delivery.id}>
      <td className="py-2 pr-3">
        <code>{delivery.eventType}</code>
      </td>
      <td className={`py-2 pr-3 font-medium ${statusStyle[delivery.status]}`}>{delivery.status}</td>
      <td className="py-2 pr-3">
        {delivery.responseStatus ?? delivery.error ?? '—'} · {delivery.attempts}{' '}
        {delivery.attempts === 1 ? 'attempt' : 'attempts'}
      </td>
      <td className="py-2 pr-3 text-slate-500">{dateTime.format(new Date(delivery.createdAt))}</td>
      <td className="py-2">
        <Button
          variant="ghost"
          size="sm"
          disabled={delivery.status === 'pending' || redeliver.isPending}
          aria-label={`Redeliver ${delivery.eventType} ${delivery.id}`}
          onClick={() =>
            redeliver.mutate(delivery.id, {
              onSuccess: () => notify.success('Redelivery queued'),
              onError: (error) => notify.error(error),
            })
          }
        >
          Redeliver
        </Button>
      </td>
    </tr>
  );
}

/** The last 50 deliveries to every endpoint of the seller (kept 90 days). */
export function DeliveryLog() {
  const deliveries = useWebhookDeliveries();
  if (deliveries.isPending) return <p className="text-sm text-slate-500">Loading deliveries...</p>;
  if (deliveries.isError)
    return <p className="text-sm text-rose-700">{deliveries.error.message}</p>;
  if (deliveries.data.length === 0)
    return <p className="text-sm text-slate-500">No deliveries yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label="Webhook deliveries">
        <thead className="text-slate-500">
          <tr>
            <th className="pr-3 font-medium">Event</th>
            <th className="pr-3 font-medium">Status</th>
            <th className="pr-3 font-medium">Response</th>
            <th className="pr-3 font-medium">Created</th>
            <th className="font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {deliveries.data.map((delivery) => (
            <DeliveryRow key={`${delivery.id}`} delivery={delivery} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
