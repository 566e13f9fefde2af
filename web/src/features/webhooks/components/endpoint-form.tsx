import { webhookEventTypes, type WebhookEventType } from '@lockdrop/contracts';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { notify } from '@/lib/toast';
import { useCreateWebhookEndpoint } from '../api/webhooks';

/** Adds an endpoint: its URL and the events it hears (all of them ticked to start with). */
export function EndpointForm() {
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...webhookEventTypes]);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { url, events, enabled: true },
      {
        onSuccess: () => {
          setUrl('');
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
    </form>
  );
}
