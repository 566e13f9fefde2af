import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useActing, useSession } from '@/features/auth';
import { useAuditLog, useTeam, type AuditEntry } from '../api/teams';

/** What each audited action reads as; an action not listed shows its code. */
const ACTIONS: Record<string, string> = {
  'team.invite_sent': 'invited',
  'team.invite_revoked': 'cancelled the invitation of',
  'team.invite_accepted': 'joined the store',
  'team.role_changed': 'changed the role of',
  'team.member_removed': 'removed',
  'team.member_left': 'left the store',
  'team.member_kept': 'kept (after a downgrade)',
  'team.ownership_transferred': 'handed the store to',
  'team.acted_for_store': 'switched into the store',
  'refund.requested': 'refunded the sale',
  'payout.withdrawn': 'withdrew to',
  'payout.scheduled': 'scheduled payout to',
  'payout_destination.added': 'added the payout destination',
  'payout_destination.changed': 'changed the payout destination to',
  'discount.created': 'created the discount code',
  'discount.updated': 'changed the discount code',
  'discount.deleted': 'deleted the discount code',
  'api_key.created': 'created the API key',
  'api_key.revoked': 'revoked the API key',
  'brand.updated': 'saved the store brand',
  'webhook_endpoint.created': 'added the webhook endpoint',
  'webhook_endpoint.updated': 'changed the webhook endpoint',
  'webhook_endpoint.deleted': 'deleted the webhook endpoint',
  'webhook_endpoint.secret_rotated': 'rotated the signing secret of',
  'webhook_endpoint.secret_revealed': 'revealed the signing secret of',
};

/** What an entry acted on, in words: a member's address, a key's name, an endpoint's URL. */
function targetOf(entry: AuditEntry, people: Map<string, string>): string {
  if (!entry.target) return '';
  const member = people.get(entry.target);
  if (member) return member;
  const { name, prefix, url } = entry.details;
  if (entry.action.startsWith('api_key.') && typeof name === 'string')
    return typeof prefix === 'string' ? `${name} (${prefix}…)` : name;
  if (entry.action.startsWith('webhook_endpoint.') && typeof url === 'string') return url;
  return entry.target;
}

/**
 * Settings → Activity (issue 28): who did what to the store's money and team, when and from
 * where, for the owner and admins; pages of 25, one member's actions at a time if chosen.
 */
export function ActivitySection() {
  const { user } = useSession();
  const acting = useActing();
  const storeId = acting?.storeId ?? user?.id ?? null;
  const mayRead = !acting || acting.role === 'owner' || acting.role === 'admin';
  const [actorId, setActorId] = useState('');
  const team = useTeam(mayRead ? storeId : null);
  const log = useAuditLog(mayRead ? storeId : null, actorId);
  if (!mayRead) return null;
  const people = new Map(team.data?.members.map((member) => [member.userId, member.email]));
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section
      aria-labelledby="settings-activity"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="settings-activity" className="text-lg font-semibold text-slate-900">
        Activity
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Money and team actions in this store: who, what, when and from where.
      </p>
      <label className="mt-4 block text-sm font-medium text-slate-700">
        Member
        <select
          value={actorId}
          onChange={(event) => setActorId(event.target.value)}
          className="mt-1 block w-full max-w-md rounded-lg px-3 py-2 ring-1 ring-slate-300"
        >
          <option value="">Everyone</option>
          {team.data?.members.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.email}
            </option>
          ))}
        </select>
      </label>
      {log.isError && <p className="mt-4 text-sm text-rose-700">{log.error.message}</p>}
      <ol className="mt-4 divide-y divide-slate-100" aria-label="Activity">
        {entries.map((entry) => (
          <ActivityRow key={entry.id} entry={entry} people={people} />
        ))}
        {log.isSuccess && entries.length === 0 && (
          <li className="py-3 text-sm text-slate-500">Nothing yet.</li>
        )}
      </ol>
      {log.hasNextPage && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-4"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? 'Loading...' : 'Show older'}
        </Button>
      )}
    </section>
  );
}

function ActivityRow({ entry, people }: { entry: AuditEntry; people: Map<string, string> }) {
  const who = entry.actorEmail ?? (entry.actorId ? 'A former member' : 'Lockdrop (scheduled)');
  const target = targetOf(entry, people);
  return (
    <li className="py-3 text-sm" data-action={entry.action}>
      <p className="text-slate-900">
        <strong>{who}</strong> {ACTIONS[entry.action] ?? entry.action} {target}
      </p>
      <p className="text-xs text-slate-500">
        <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
        {entry.ip && ` · ${entry.ip}`}
        {entry.userAgent && ` · ${entry.userAgent}`}
      </p>
    </li>
  );
}
