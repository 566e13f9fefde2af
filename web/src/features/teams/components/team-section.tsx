import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useActing, useSession } from '@/features/auth';
import { notify } from '@/lib/toast';
import {
  MEMBER_ROLES,
  useInvite,
  useRemoveMember,
  useRevokeInvite,
  useTeam,
  type MemberRole,
} from '../api/teams';

const ROLE_HELP: Record<MemberRole, string> = {
  admin: 'everything but payouts, billing and the team owner',
  editor: 'products, files, discounts and buyer updates',
  support: 'sales, refunds and buyers',
  accountant: 'read-only: sales, payouts, exports and analytics',
};

/**
 * Settings → Team: members, pending invites and the invite form of the store the session is in
 * (the person's own, or the one they act for). Only the owner and admins manage it; the server
 * checks that again on every call.
 */
export function TeamSection() {
  const { user } = useSession();
  const acting = useActing();
  const storeId = acting?.storeId ?? user?.id ?? null;
  const canManage = !acting || acting.role === 'admin';
  const team = useTeam(storeId);
  const invite = useInvite(storeId ?? '');
  const remove = useRemoveMember(storeId ?? '');
  const revoke = useRevokeInvite(storeId ?? '');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate(
      { email, role },
      {
        onSuccess: () => {
          setEmail('');
          notify.success(`Invitation sent to ${email}`);
        },
        onError: (error) => notify.error(error, 'Could not send the invitation'),
      },
    );
  }

  const seats = team.data?.seats;
  return (
    <section
      aria-labelledby="settings-team"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="settings-team" className="text-lg font-semibold text-slate-900">
        Team
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {seats === undefined
          ? 'Invite people to help run your store.'
          : seats === null
            ? 'Unlimited seats on your plan.'
            : seats === 0
              ? 'Your plan has no team seats: upgrade to Pro to invite your team.'
              : `${team.data!.seatsUsed} of ${seats} seats used (pending invitations count).`}
      </p>
      {team.isError && <p className="mt-4 text-sm text-rose-700">{team.error.message}</p>}
      <ul className="mt-6 divide-y divide-slate-100" aria-label="Team members">
        {team.data?.members.map((member) => (
          <li
            key={member.userId}
            className="flex items-center gap-4 py-3"
            data-member={member.email}
          >
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-medium text-slate-900">{member.fullName || member.email}</p>
              <p className="text-slate-500">
                {member.email} · {member.role}
              </p>
            </div>
            {canManage && member.role !== 'owner' && (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${member.email}`}
                disabled={remove.isPending}
                onClick={() =>
                  remove.mutate(member.userId, {
                    onSuccess: () => notify.success(`${member.email} was removed`),
                    onError: (error) => notify.error(error, 'Could not remove the member'),
                  })
                }
              >
                Remove
              </Button>
            )}
          </li>
        ))}
        {team.data?.invites.map((pending) => (
          <li key={pending.id} className="flex items-center gap-4 py-3" data-invite={pending.email}>
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-medium text-slate-900">{pending.email}</p>
              <p className="text-slate-500">
                Invited as {pending.role} · waiting for them to accept
              </p>
            </div>
            {canManage && (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Cancel the invitation to ${pending.email}`}
                onClick={() =>
                  revoke.mutate(pending.id, {
                    onError: (error) => notify.error(error, 'Could not cancel the invitation'),
                  })
                }
              >
                Cancel
              </Button>
            )}
          </li>
        ))}
      </ul>
      {canManage && seats !== 0 && (
        <form className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={submit}>
          <label className="flex-1 text-sm font-medium text-slate-700">
            E-mail
            <input
              type="email"
              required
              name="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className="mt-1 block w-full rounded-lg px-3 py-2 ring-1 ring-slate-300"
            />
          </label>
          <label className="text-sm font-medium text-slate-700">
            Role
            <select
              name="role"
              value={role}
              onChange={(event) => setRole(event.target.value as MemberRole)}
              className="mt-1 block rounded-lg px-3 py-2 ring-1 ring-slate-300"
            >
              {MEMBER_ROLES.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Sending...' : 'Send invitation'}
          </Button>
        </form>
      )}
      {canManage && (
        <p className="mt-2 text-xs text-slate-500">
          {role}: {ROLE_HELP[role]}.
        </p>
      )}
    </section>
  );
}
