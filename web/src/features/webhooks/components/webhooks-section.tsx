import { useWebhookEndpoints } from '../api/webhooks';
import { DeliveryLog } from './delivery-log';
import { EndpointForm } from './endpoint-form';
import { EndpointRow } from './endpoint-row';

/** Settings → Webhooks: the seller's endpoints, a form to add one, and the delivery log. */
export function WebhooksSection() {
  const endpoints = useWebhookEndpoints();
  return (
    <div className="space-y-8">
      {endpoints.isError && <p className="text-sm text-rose-700">{endpoints.error.message}</p>}
      <ul className="divide-y divide-slate-100" aria-label="Webhook endpoints">
        {endpoints.data?.map((endpoint) => (
          <EndpointRow key={endpoint.id} endpoint={endpoint} />
        ))}
      </ul>
      <EndpointForm />
      <div>
        <h3 className="text-base font-semibold text-slate-900">Delivery log</h3>
        <div className="mt-3">
          <DeliveryLog />
        </div>
      </div>
    </div>
  );
}
