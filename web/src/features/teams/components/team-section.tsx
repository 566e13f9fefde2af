import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import {
  REAUTHENTICATION_REQUIRED,
  ReauthenticateDialog,
  useActing,
  useSession,
} from '@/features/auth';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import {
  MEMBER_ROLES,
  useInvite,
  useKeepMember,
  useRemoveMember,
  useRevokeInvite,
  useTeam,
  useTransferOwnership,
  type MemberRole,
  type StoreMember,
} from '../api/teams';

const ROLE_HELP: Record<MemberRole, string> = {
  admin:
    'everything (brand, domain, webhooks and API keys too) but billing, where payouts go and ownership',
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
  const isOwner = !acting || acting.role === 'owner';
  const canManage = isOwner || acting?.role === 'admin';
  const team = useTeam(storeId);
  const invite = useInvite(storeId ?? '');
  const remove = useRemoveMember(storeId ?? '');
  const revoke = useRevokeInvite(storeId ?? '');
  const keep = useKeepMember(storeId ?? '');
  const transfer = useTransferOwnership(storeId ?? '');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('editor');
  // The admin the owner is handing the store to, while they confirm it is them.
  const [awaitingProof, setAwaitingProof] = useState<StoreMember | null>(null);

  function handOver(member: StoreMember) {
    transfer.mutate(member.userId, {
      onSuccess: () => notify.success(`${member.email} now owns this store; you are an admin`),
      onError: (error) => {
        if (error instanceof ApiError && error.code === REAUTHENTICATION_REQUIRED)
          return setAwaitingProof(member);
        notify.error(error, 'Could not transfer the ownership');
      },
    });
  }

  function confirmHandOver(member: StoreMember) {
    const sure = window.confirm(
      `Make ${member.email} the owner of this store? Billing, where payouts go and the team become theirs; you stay as an admin.`,
    );
    if (sure) handOver(member);
  }

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
  const readOnly = team.data?.members.filter((member) => member.readOnly) ?? [];
  const overLimit = seats !== null && seats !== undefined && (team.data?.seatsUsed ?? 0) >= seats;
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
      {readOnly.length > 0 && (
        <p
          className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
          data-testid="seat-review"
        >
          Your plan has {seats === 0 ? 'no team seats' : `${seats} team seats`} and more members.
          Members past the limit keep read-only access — the accountant&apos;s read rights: sales,
          payouts, exports and analytics — until {isOwner ? 'you choose' : 'the owner chooses'} who
          stays: keep them, or remove them.
        </p>
      )}
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
                {member.readOnly && ' · read-only until kept'}
              </p>
            </div>
            {isOwner && member.readOnly && (
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Keep ${member.email}`}
                disabled={keep.isPending}
                onClick={() =>
                  keep.mutate(member.userId, {
                    onSuccess: () =>
                      notify.success(`${member.email} keeps their ${member.role} role`),
                    onError: (error) => notify.error(error, 'Could not keep the member'),
                  })
                }
              >
                Keep
              </Button>
            )}
            {isOwner && member.role === 'admin' && !member.readOnly && (
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Make ${member.email} the owner`}
                disabled={transfer.isPending}
                onClick={() => confirmHandOver(member)}
              >
                Make owner
              </Button>
            )}
            {canManage && member.role !== 'owner' && member.userId !== storeId && (
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
      {canManage && seats !== 0 && !overLimit && (
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
      <ReauthenticateDialog
        open={awaitingProof !== null}
        purpose="hand this store to another owner"
        onCancel={() => setAwaitingProof(null)}
        onConfirmed={() => {
          const member = awaitingProof;
          setAwaitingProof(null);
          if (member) handOver(member);
        }}
      />
    </section>
  );
}
