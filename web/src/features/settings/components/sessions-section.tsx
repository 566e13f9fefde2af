import { Monitor, Smartphone } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast';
import {
  useRevokeSession,
  useSessions,
  useSignOutOthers,
  type SignedInSession,
} from '../api/sessions';
import { SettingsCard } from './settings-card';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A readable device name from the user agent: enough to recognise one's own browsers. */
function deviceOf(userAgent: string | null): { name: string; mobile: boolean } {
  const agent = userAgent ?? '';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrome\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'Browser';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return {
    name: system ? `${browser} on ${system}` : browser,
    mobile: /Mobile|Android|iPhone/.test(agent),
  };
}

function SessionRow({ session }: { session: SignedInSession }) {
  const revoke = useRevokeSession();
  const device = deviceOf(session.userAgent);
  const Icon = device.mobile ? Smartphone : Monitor;
  return (
    <li
      className="flex items-center gap-4 py-4"
      data-session={session.current ? 'current' : 'other'}
    >
      <Icon className="size-6 flex-none text-slate-400" aria-hidden="true" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium text-slate-900">
          {device.name}
          {session.current && (
            <span className="ml-2 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700 ring-1 ring-emerald-200">
              This device
            </span>
          )}
        </p>
        <p className="text-slate-500">
          {session.ip ?? 'Unknown location'} · last active{' '}
          {dateTime.format(new Date(session.lastUsedAt))}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="ghost"
          size="sm"
          disabled={revoke.isPending}
          aria-label={`Sign out ${device.name}, last active ${dateTime.format(new Date(session.lastUsedAt))}`}
          onClick={() => revoke.mutate(session.id, { onError: (error) => notify.error(error) })}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}

export function SessionsSection() {
  const sessions = useSessions();
  const signOutOthers = useSignOutOthers();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;
  return (
    <SettingsCard
      id="settings-sessions"
      title="Where you're signed in"
      description="Sign out of devices you no longer use."
    >
      {sessions.isPending && <p className="text-sm text-slate-500">Loading sessions...</p>}
      {sessions.isError && <p className="text-sm text-rose-700">{sessions.error.message}</p>}
      <ul className="divide-y divide-slate-100" aria-label="Sessions">
        {sessions.data?.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      <Button
        variant="secondary"
        className="mt-4"
        disabled={others === 0 || signOutOthers.isPending}
        onClick={() =>
          signOutOthers.mutate(undefined, {
            onSuccess: () => notify.success('Signed out of other sessions'),
            onError: (error) => notify.error(error, 'Failed to sign out other sessions'),
          })
        }
      >
        {signOutOthers.isPending ? 'Signing out...' : 'Sign out other sessions'}
      </Button>
    </SettingsCard>
  );
}
