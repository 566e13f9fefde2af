import { randomUUID } from 'node:crypto';
import { STORE_ROLE_RIGHTS } from '@lockdrop/auth';
import { enqueueEvent } from '@lockdrop/bus';
import {
  createEvent,
  type Acting,
  type MemberRole,
  type StoreRole,
  type Team,
} from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMail, type MailRelay } from '@lockdrop/mailer';
import { planById } from '@lockdrop/plans';
import { clearActingStore } from '../db/sessions.repo.js';
import { markEmailVerified } from '../db/users.repo.js';
import * as teams from '../db/teams.repo.js';
import { normalizeEmail, requireAccount, type Client } from './account.js';
import type { Emails } from './emails.js';
import { enqueueProfileUpdated } from './profile-events.js';
import { hashToken, newToken } from './secrets.js';

/** Issue 28: an invite link lives 72 hours. */
export const INVITE_LIFETIME_SECONDS = 72 * 60 * 60;

export const teamErrors = {
  // 404, not 403: a store one does not belong to is not confirmed to exist.
  notAMember: () => new AppError('store_not_found', 404, 'Store not found'),
  ownerOrAdminOnly: () =>
    new AppError('not_allowed_for_role', 403, 'Only the store owner or an admin can do this'),
  seatLimit: (seats: number) =>
    new AppError(
      'seat_limit_reached',
      403,
      seats === 0
        ? 'Your plan has no team seats: upgrade to Pro to invite your team'
        : `Your plan has ${seats} team seat${seats === 1 ? '' : 's'} and all are taken (pending invites count): upgrade or remove someone first`,
      { seats },
    ),
  alreadyMember: () =>
    new AppError('already_member', 409, 'This person is already a member of your store'),
  selfInvite: () => new AppError('invalid_invite', 400, 'You own this store already'),
  inviteInvalid: () =>
    new AppError(
      'invite_invalid',
      400,
      'This invitation link is not valid (it may have been used or revoked)',
    ),
  inviteExpired: () =>
    new AppError('invite_expired', 400, 'This invitation has expired: ask for a new one'),
  inviteWrongEmail: (email: string) =>
    new AppError(
      'invite_wrong_email',
      403,
      `This invitation was sent to ${email}: sign in with that address to accept it`,
    ),
  inviteNotFound: () => new AppError('invite_not_found', 404, 'Invitation not found'),
  memberNotFound: () => new AppError('member_not_found', 404, 'Member not found'),
};

/** Who is asking: the person (never the store they may be acting for) and where from. */
export interface Caller {
  userId: string;
  client: Client;
  /** The request's id, carried by the events it causes. */
  correlationId: string;
}

interface TeamDeps {
  pool: Pool;
  emails: Emails;
  mailRelay: Pick<MailRelay, 'wake'>;
}

/** The person's role in a store: `owner` for their own, their membership's, or null. */
export async function roleIn(
  db: Queryable,
  storeId: string,
  userId: string,
): Promise<StoreRole | null> {
  if (storeId === userId) return 'owner';
  return (await teams.findLiveMembership(db, storeId, userId))?.role ?? null;
}

/** What a session acting for a store shows: the store, the role and the role's rights. */
export async function actingFor(db: Queryable, storeId: string, role: StoreRole): Promise<Acting> {
  const owner = await requireAccount(db, storeId);
  return {
    storeId,
    storeName: storeNameOf(owner.profile.fullName, owner.user.email),
    role,
    rights: [...STORE_ROLE_RIGHTS[role]],
  };
}

const storeNameOf = (fullName: string, email: string) => fullName.trim() || email;

export function createTeamService({ pool, emails, mailRelay }: TeamDeps) {
  const audit = (
    tx: Queryable,
    storeId: string,
    caller: Caller,
    action: string,
    target: string | null,
    details: Record<string, unknown> = {},
  ) =>
    teams.insertAudit(tx, {
      id: randomUUID(),
      storeId,
      actorId: caller.userId,
      action,
      target,
      details,
      ip: caller.client.ip,
    });

  /** Team management is the owner's, and an admin's (issue 28: admin = all but ownership, payouts). */
  const requireManager = async (db: Queryable, storeId: string, userId: string) => {
    const role = await roleIn(db, storeId, userId);
    if (!role) throw teamErrors.notAMember();
    if (role !== 'owner' && role !== 'admin') throw teamErrors.ownerOrAdminOnly();
    return role;
  };

  const inTransaction = async <T>(work: (tx: PoolClient) => Promise<T>): Promise<T> => {
    const result = await withTransaction(pool, work);
    mailRelay.wake();
    return result;
  };

  return {
    async team(storeId: string, caller: Caller): Promise<Team> {
      if (!(await roleIn(pool, storeId, caller.userId))) throw teamErrors.notAMember();
      const owner = await requireAccount(pool, storeId);
      const members = await teams.listLiveMembers(pool, storeId);
      const invites = await teams.listPendingInvites(pool, storeId);
      return {
        members: [
          {
            userId: storeId,
            email: owner.user.email,
            fullName: owner.profile.fullName,
            role: 'owner',
            joinedAt: owner.profile.createdAt.toISOString(),
          },
          ...members.map((member) => ({
            userId: member.userId,
            email: member.email,
            fullName: member.fullName,
            role: member.role,
            joinedAt: member.createdAt.toISOString(),
          })),
        ],
        invites: invites.map((invite) => ({
          id: invite.id,
          email: invite.email,
          role: invite.role,
          expiresAt: invite.expiresAt.toISOString(),
          createdAt: invite.createdAt.toISOString(),
        })),
        seats: planById(owner.profile.plan).teamSeats,
        seatsUsed: members.length + invites.length,
      };
    },

    /** E-mails a single-use, 72-hour link bound to `email`; a pending invite takes a seat. */
    async invite(storeId: string, caller: Caller, input: { email: string; role: MemberRole }) {
      const email = normalizeEmail(input.email);
      return inTransaction(async (tx) => {
        await requireManager(tx, storeId, caller.userId);
        // Serialises invites of one store, so two at once cannot both take the last seat.
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [storeId]);
        const owner = await requireAccount(tx, storeId);
        if (email === owner.user.email) throw teamErrors.selfInvite();
        const already = await tx.query<{ id: string }>(
          `SELECT m.id FROM store_members m JOIN users u ON u.id = m.user_id
           WHERE m.store_id = $1 AND m.removed_at IS NULL AND u.email = $2`,
          [storeId, email],
        );
        if (already.rowCount) throw teamErrors.alreadyMember();
        const seats = planById(owner.profile.plan).teamSeats;
        if (seats !== null && (await teams.countSeatsUsed(tx, storeId)) >= seats)
          throw teamErrors.seatLimit(seats);
        const token = newToken();
        const invite = await teams.insertInvite(tx, {
          id: randomUUID(),
          storeId,
          email,
          role: input.role,
          tokenHash: token.hash,
          invitedBy: caller.userId,
          lifetimeSeconds: INVITE_LIFETIME_SECONDS,
        });
        await enqueueMail(
          tx,
          emails.storeInvite(
            email,
            storeNameOf(owner.profile.fullName, owner.user.email),
            input.role,
            token.token,
          ),
        );
        await audit(tx, storeId, caller, 'team.invite_sent', email, { role: input.role });
        return invite;
      });
    },

    async revokeInvite(storeId: string, caller: Caller, inviteId: string) {
      await inTransaction(async (tx) => {
        await requireManager(tx, storeId, caller.userId);
        const revoked = await teams.revokeInvite(tx, storeId, inviteId);
        if (!revoked) throw teamErrors.inviteNotFound();
        await audit(tx, storeId, caller, 'team.invite_revoked', revoked.email, {
          role: revoked.role,
        });
      });
    },

    /**
     * The signed-in person takes the invite: the link must be live and unused, and their
     * (verified) e-mail must be the one it was sent to. Used once, inside one transaction.
     */
    async accept(token: string, caller: Caller) {
      return inTransaction(async (tx) => {
        const invite = await teams.findInviteByTokenForUpdate(tx, hashToken(token));
        if (!invite || invite.acceptedAt || invite.revokedAt) throw teamErrors.inviteInvalid();
        if (invite.expired) throw teamErrors.inviteExpired();
        const person = await requireAccount(tx, caller.userId);
        if (person.user.email !== invite.email) throw teamErrors.inviteWrongEmail(invite.email);
        // Bound to the address. The token was e-mailed there alone, so holding it proves the
        // mailbox as the verification link does: someone who signed up to accept is confirmed.
        if (!person.user.emailVerified && (await markEmailVerified(tx, person.user.id))) {
          await enqueueEvent(
            tx,
            createEvent(
              'user.email_verified',
              { userId: person.user.id, email: person.user.email },
              { correlationId: caller.correlationId },
            ),
          );
          await enqueueProfileUpdated(
            tx,
            { ...person, user: { ...person.user, emailVerified: true } },
            caller.correlationId,
          );
        }
        if (invite.storeId === caller.userId) throw teamErrors.selfInvite();
        if (await teams.findLiveMembership(tx, invite.storeId, caller.userId))
          throw teamErrors.alreadyMember();
        await teams.markAccepted(tx, invite.id, caller.userId);
        await teams.insertMembership(tx, {
          id: randomUUID(),
          storeId: invite.storeId,
          userId: caller.userId,
          role: invite.role,
          invitedBy: null,
        });
        await audit(tx, invite.storeId, caller, 'team.invite_accepted', person.user.email, {
          role: invite.role,
        });
        const owner = await requireAccount(tx, invite.storeId);
        return {
          storeId: invite.storeId,
          storeName: storeNameOf(owner.profile.fullName, owner.user.email),
          role: invite.role,
        };
      });
    },

    /** Owner or admin; never to owner, never the owner's own "membership". */
    async changeRole(storeId: string, caller: Caller, memberId: string, role: MemberRole) {
      await inTransaction(async (tx) => {
        await requireManager(tx, storeId, caller.userId);
        const member = await teams.findLiveMembership(tx, storeId, memberId, true);
        if (!member) throw teamErrors.memberNotFound();
        if (member.role === role) return;
        await teams.updateRole(tx, member.id, role);
        await enqueueEvent(
          tx,
          createEvent(
            'store.member_role_changed',
            { storeId, userId: memberId, role },
            { correlationId: caller.correlationId },
          ),
        );
        await audit(tx, storeId, caller, 'team.role_changed', memberId, {
          from: member.role,
          to: role,
        });
      });
    },

    /**
     * Removal (by owner/admin) or leaving (by the member): the membership ends now, the member's
     * sessions stop acting for the store, and `store.member_removed` tells every gateway to
     * refuse the member's acting tokens from the next request on (not at their expiry).
     */
    async remove(storeId: string, caller: Caller, memberId: string) {
      await inTransaction(async (tx) => {
        const leaving = memberId === caller.userId;
        if (!leaving) await requireManager(tx, storeId, caller.userId);
        const member = await teams.findLiveMembership(tx, storeId, memberId, true);
        if (!member) throw leaving ? teamErrors.notAMember() : teamErrors.memberNotFound();
        await teams.markRemoved(tx, member.id);
        await clearActingStore(tx, storeId, memberId);
        await enqueueEvent(
          tx,
          createEvent(
            'store.member_removed',
            { storeId, userId: memberId },
            { correlationId: caller.correlationId },
          ),
        );
        await audit(
          tx,
          storeId,
          caller,
          leaving ? 'team.member_left' : 'team.member_removed',
          memberId,
          {
            role: member.role,
          },
        );
      });
    },

    /** Stores the person belongs to: their own first. */
    async myStores(userId: string) {
      const own = await requireAccount(pool, userId);
      const memberships = await teams.listStoresOf(pool, userId);
      return [
        {
          storeId: userId,
          storeName: storeNameOf(own.profile.fullName, own.user.email),
          role: 'owner' as const,
          own: true,
        },
        ...memberships.map((membership) => ({
          storeId: membership.storeId,
          storeName: membership.storeName,
          role: membership.role,
          own: false,
        })),
      ];
    },

    async auditLog(storeId: string, caller: Caller, limit = 100) {
      await requireManager(pool, storeId, caller.userId);
      return teams.listAudit(pool, storeId, limit);
    },

    /** The gateway's question (internal): is this person a live member, with which role? */
    async membership(storeId: string, userId: string) {
      const role = await roleIn(pool, storeId, userId);
      return { active: role !== null, role };
    },

    /** Records a switch into a store (audit), done by the session service. */
    recordSwitch: (storeId: string, caller: Caller) =>
      audit(pool, storeId, caller, 'team.acted_for_store', caller.userId),
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
