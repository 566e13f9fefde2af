import { webhookEventTypes, type WebhookEventType } from '@lockdrop/contracts';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { choiceClass } from '@/components/ui/choice';
import { TextField } from '@/components/ui/text-field';
import { paymentModeQueryOptions } from '@/lib/payment-mode';
import { notify } from '@/lib/toast';
import {
  useCreateWebhookEndpoint,
  type WebhookEndpointMode,
  type WebhookEndpointWithSecret,
} from '../api/webhooks';
import { SigningSecret } from './signing-secret';

const MODES: { value: WebhookEndpointMode; label: string }[] = [
  { value: 'live', label: 'Live payments' },
  { value: 'test', label: 'Test payments' },
];

/**
 * Adds an endpoint: its URL, which payments it hears (test or live; this deployment's own mode to
 * start with), and the events (all of them ticked to start with). The new secret shows here once.
 */
export function EndpointForm() {
  const create = useCreateWebhookEndpoint();
  const deploymentTestMode = useQuery(paymentModeQueryOptions).data?.testMode;
  const id = useId();
  const [url, setUrl] = useState('');
  const [chosenMode, setMode] = useState<WebhookEndpointMode | null>(null);
  const mode = chosenMode ?? (deploymentTestMode ? 'test' : 'live');
  const [events, setEvents] = useState<WebhookEventType[]>([...webhookEventTypes]);
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { url, events, enabled: true, mode },
      {
        onSuccess: (endpoint) => {
          setUrl('');
          setCreated(endpoint);
          notify.success('Endpoint added');
        },
        onError: (error) => notify.error(error),
      },
    );
  }

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Add a webhook endpoint">
      <TextField
        label="Endpoint URL"
        name="webhook-url"
        type="url"
        required
        placeholder="https://example.com/lockdrop-webhooks"
        value={url}
        onChange={(event) => setUrl(event.target.value)}
      />
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Payments</legend>
        <div className="mt-2 grid grid-cols-2 gap-2">
          {MODES.map((choice) => (
            <label key={choice.value} className={choiceClass}>
              <input
                type="radio"
                name={`${id}-mode`}
                value={choice.value}
                checked={mode === choice.value}
                onChange={() => setMode(choice.value)}
                className="sr-only"
              />
              {choice.label}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Events</legend>
        <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {webhookEventTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              <code>{type}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <Button type="submit" disabled={create.isPending || events.length === 0}>
        {create.isPending ? 'Adding...' : 'Add endpoint'}
      </Button>
      {created && (
        <div
          className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200"
          data-created-endpoint={created.url}
        >
          <SigningSecret
            secret={created.secret}
            note={`For ${created.url}. Verify deliveries with it; it is not shown in the list (Reveal secret shows it again).`}
          />
        </div>
      )}
    </form>
  );
}
