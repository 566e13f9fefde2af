import { randomUUID } from 'node:crypto';
import { assertRecentAuth, STORE_ROLE_RIGHTS } from '@lockdrop/auth';
import { enqueueEvent } from '@lockdrop/bus';
import {
  createEvent,
  type Acting,
  type AuditedAction,
  type AuditLogQuery,
  type DomainEvent,
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
import { loadAccount, normalizeEmail, requireAccount, type Client } from './account.js';
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
  ownerOnly: () => new AppError('not_allowed_for_role', 403, 'Only the store owner can do this'),
  transferTarget: () =>
    new AppError(
      'invalid_transfer',
      409,
      'Ownership can only go to an admin of this store with full access: make them an admin first',
    ),
  storeAccount: () =>
    new AppError(
      'store_account_member',
      409,
      'This is the account the store was created under: it stays in the store (change its role instead)',
    ),
  notReadOnly: () =>
    new AppError('member_not_read_only', 409, 'This member already has full access'),
  keptSeatsFull: (seats: number) =>
    new AppError(
      'seat_limit_reached',
      403,
      `Your plan has ${seats} team seat${seats === 1 ? '' : 's'} and all are kept: remove someone before keeping another member`,
      { seats },
    ),
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
  /** How recent the owner's proof of identity must be to transfer the store. */
  reauthMaxAgeSeconds: number;
}

/** What a person may do in a store: the role they act with, and whether it is read-only. */
export interface StoreAccess {
  role: StoreRole;
  /** Past the plan's seats after a downgrade: `role` is then the accountant's. */
  readOnly: boolean;
}

/**
 * The person's access to a store: `owner` for its owner (the account it is, unless transferred),
 * their membership's role, the accountant's read rights while past the plan's seats, or null.
 */
export async function accessIn(
  db: Queryable,
  storeId: string,
  userId: string,
): Promise<StoreAccess | null> {
  if ((await teams.ownerOf(db, storeId)) === userId) return { role: 'owner', readOnly: false };
  const membership = await teams.findLiveMembership(db, storeId, userId);
  if (!membership) return null;
  return membership.readOnlySince
    ? { role: READ_ONLY_ROLE, readOnly: true }
    : { role: membership.role, readOnly: false };
}

/** Issue 28: a member past the seats keeps read-only access — the accountant's read rights. */
export const READ_ONLY_ROLE = 'accountant' satisfies MemberRole;

export async function roleIn(
  db: Queryable,
  storeId: string,
  userId: string,
): Promise<StoreRole | null> {
  return (await accessIn(db, storeId, userId))?.role ?? null;
}

/** What a session acting for a store shows: the store, the role and the role's rights. */
export async function actingFor(
  db: Queryable,
  storeId: string,
  access: StoreAccess,
): Promise<Acting> {
  const store = await requireAccount(db, storeId);
  return {
    storeId,
    storeName: storeNameOf(store.profile.fullName, store.user.email),
    role: access.role,
    rights: [...STORE_ROLE_RIGHTS[access.role]],
    readOnly: access.readOnly,
  };
}

/** Seats besides the owner on the store's plan (null = unlimited). */
async function seatsOf(db: Queryable, storeId: string): Promise<number | null> {
  return planById((await requireAccount(db, storeId)).profile.plan).teamSeats;
}

const roleChanged = (storeId: string, userId: string, role: StoreRole, correlationId: string) =>
  createEvent('store.member_role_changed', { storeId, userId, role }, { correlationId });

/**
 * Seats after a plan change or a removal (issue 28): while the store has more members than its
 * plan's seats, the most recently joined members past the limit keep read-only access (the
 * accountant's read rights) until the owner keeps or removes them; more seats give the
 * longest-standing read-only members their role back, and once the members fit, all have it. Emits a role change for each member whose access changed, so gateways
 * refuse tokens carrying the old rights on the next request.
 */
export async function applySeatLimit(
  tx: Queryable,
  storeId: string,
  correlationId: string,
): Promise<void> {
  const store = await loadAccount(tx, storeId);
  // A plan change for an account deleted since: no store, no seats.
  if (!store) return;
  const seats = planById(store.profile.plan).teamSeats;
  const members = await teams.listLiveMembers(tx, storeId);
  if (seats === null || members.length <= seats) {
    for (const restored of await teams.restoreReadOnly(tx, storeId))
      await enqueueEvent(tx, roleChanged(storeId, restored.userId, restored.role, correlationId));
    return;
  }
  const full = members.filter((member) => !member.readOnlySince);
  const pastLimit = full.slice(seats).map((member) => member.id);
  for (const limited of await teams.markReadOnly(tx, pastLimit))
    await enqueueEvent(tx, roleChanged(storeId, limited.userId, READ_ONLY_ROLE, correlationId));
  // More seats than before, still not enough for all: the longest-standing get theirs back.
  const freeSeats = seats - full.length;
  const waiting = members.filter((member) => member.readOnlySince).slice(0, Math.max(freeSeats, 0));
  for (const member of waiting)
    for (const restored of await teams.restoreReadOnly(tx, storeId, member.userId))
      await enqueueEvent(tx, roleChanged(storeId, restored.userId, restored.role, correlationId));
}

const storeNameOf = (fullName: string, email: string) => fullName.trim() || email;

const auditCursorPattern = /^(\d{1,20})_([0-9a-f-]{36})$/;
function parseAuditCursor(cursor: string): teams.AuditCursor {
  const match = auditCursorPattern.exec(cursor);
  if (!match) throw new AppError('invalid_cursor', 400, 'This page link is not valid');
  return { createdMicros: match[1]!, id: match[2]! };
}

export function createTeamService({ pool, emails, mailRelay, reauthMaxAgeSeconds }: TeamDeps) {
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
      userAgent: caller.client.userAgent,
    });

  /** Team management is the owner's, and an admin's (issue 28: admin = all but ownership, payouts). */
  const requireManager = async (db: Queryable, storeId: string, userId: string) => {
    const role = await roleIn(db, storeId, userId);
    if (!role) throw teamErrors.notAMember();
    if (role !== 'owner' && role !== 'admin') throw teamErrors.ownerOrAdminOnly();
    return role;
  };
  // Like requireManager: someone outside the store learns nothing of it (404), a member that
  // only its owner may do this.
  const requireOwner = async (db: Queryable, storeId: string, userId: string) => {
    const role = await roleIn(db, storeId, userId);
    if (!role) throw teamErrors.notAMember();
    if (role !== 'owner') throw teamErrors.ownerOnly();
  };

  const inTransaction = async <T>(work: (tx: PoolClient) => Promise<T>): Promise<T> => {
    const result = await withTransaction(pool, work);
    mailRelay.wake();
    return result;
  };

  return {
    async team(storeId: string, caller: Caller): Promise<Team> {
      if (!(await roleIn(pool, storeId, caller.userId))) throw teamErrors.notAMember();
      const ownerId = await teams.ownerOf(pool, storeId);
      const owner = await requireAccount(pool, ownerId);
      const members = await teams.listLiveMembers(pool, storeId);
      const invites = await teams.listPendingInvites(pool, storeId);
      return {
        members: [
          {
            userId: ownerId,
            email: owner.user.email,
            fullName: owner.profile.fullName,
            role: 'owner',
            joinedAt: owner.profile.createdAt.toISOString(),
            readOnly: false,
          },
          ...members.map((member) => ({
            userId: member.userId,
            email: member.email,
            fullName: member.fullName,
            role: member.role,
            joinedAt: member.createdAt.toISOString(),
            readOnly: member.readOnlySince !== null,
          })),
        ],
        invites: invites.map((invite) => ({
          id: invite.id,
          email: invite.email,
          role: invite.role,
          expiresAt: invite.expiresAt.toISOString(),
          createdAt: invite.createdAt.toISOString(),
        })),
        seats: await seatsOf(pool, storeId),
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
        const currentOwner = await requireAccount(tx, await teams.ownerOf(tx, storeId));
        if (email === currentOwner.user.email) throw teamErrors.selfInvite();
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
        if ((await teams.ownerOf(tx, invite.storeId)) === caller.userId)
          throw teamErrors.selfInvite();
        if (await teams.findLiveMembership(tx, invite.storeId, caller.userId))
          throw teamErrors.alreadyMember();
        // A pending invite held its seat, but a downgrade since may have taken it away.
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [invite.storeId]);
        const seats = await seatsOf(tx, invite.storeId);
        if (seats !== null && (await teams.listLiveMembers(tx, invite.storeId)).length >= seats)
          throw teamErrors.seatLimit(seats);
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
        // Its sign-in is the store's: without a membership it could only act as the owner.
        if (memberId === storeId) throw teamErrors.storeAccount();
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
        // A removal may bring the store back within its seats: the read-only get their role back.
        await applySeatLimit(tx, storeId, caller.correlationId);
      });
    },

    /**
     * The owner chooses who stays after a downgrade: a read-only member gets their role back
     * while a seat is free among the members with full access.
     */
    async keep(storeId: string, caller: Caller, memberId: string) {
      await inTransaction(async (tx) => {
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [storeId]);
        await requireOwner(tx, storeId, caller.userId);
        const member = await teams.findLiveMembership(tx, storeId, memberId, true);
        if (!member) throw teamErrors.memberNotFound();
        if (!member.readOnlySince) throw teamErrors.notReadOnly();
        const seats = await seatsOf(tx, storeId);
        const full = (await teams.listLiveMembers(tx, storeId)).filter((m) => !m.readOnlySince);
        if (seats !== null && full.length >= seats) throw teamErrors.keptSeatsFull(seats);
        await teams.restoreReadOnly(tx, storeId, memberId);
        await enqueueEvent(tx, roleChanged(storeId, memberId, member.role, caller.correlationId));
        await audit(tx, storeId, caller, 'team.member_kept', memberId, { role: member.role });
      });
    },

    /**
     * Hands the store to one of its admins (issue 28): the owner proved who they are within the
     * last minutes (`authTime`, the session's); the former owner stays as an admin. The store's
     * id — and so every service's ownership column — does not change: only who owns it.
     */
    async transfer(storeId: string, caller: Caller, toUserId: string, authTime: Date) {
      assertRecentAuth(Math.floor(authTime.getTime() / 1000), reauthMaxAgeSeconds);
      await inTransaction(async (tx) => {
        await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [storeId]);
        await requireOwner(tx, storeId, caller.userId);
        const target = await teams.findLiveMembership(tx, storeId, toUserId, true);
        if (!target || target.role !== 'admin' || target.readOnlySince)
          throw teamErrors.transferTarget();
        await teams.markRemoved(tx, target.id);
        await teams.setOwner(tx, storeId, toUserId);
        await teams.insertMembership(tx, {
          id: randomUUID(),
          storeId,
          userId: caller.userId,
          role: 'admin',
          invitedBy: null,
        });
        const { correlationId } = caller;
        await enqueueEvent(tx, roleChanged(storeId, toUserId, 'owner', correlationId));
        await enqueueEvent(tx, roleChanged(storeId, caller.userId, 'admin', correlationId));
        await enqueueEvent(
          tx,
          createEvent(
            'store.ownership_transferred',
            { storeId, fromUserId: caller.userId, toUserId },
            { correlationId },
          ),
        );
        await audit(tx, storeId, caller, 'team.ownership_transferred', toUserId, {
          from: caller.userId,
        });
        const store = await requireAccount(tx, storeId);
        // Payments' sale e-mails follow the store to its new owner's address.
        await enqueueProfileUpdated(tx, store, correlationId);
        const previous = await requireAccount(tx, caller.userId);
        const next = await requireAccount(tx, toUserId);
        const names = {
          name: storeNameOf(store.profile.fullName, store.user.email),
          previousOwner: storeNameOf(previous.profile.fullName, previous.user.email),
          newOwner: storeNameOf(next.profile.fullName, next.user.email),
        };
        await enqueueMail(tx, emails.ownershipTransferred(previous.user.email, 'previous', names));
        await enqueueMail(tx, emails.ownershipTransferred(next.user.email, 'new', names));
      });
    },

    /** Stores the person belongs to: their own first. */
    async myStores(userId: string) {
      const own = await requireAccount(pool, userId);
      const ownRole = await roleIn(pool, userId, userId);
      const received = await teams.listTransferredStoresOf(pool, userId);
      const memberships = await teams.listStoresOf(pool, userId);
      return [
        {
          storeId: userId,
          storeName: storeNameOf(own.profile.fullName, own.user.email),
          // Another's since a transfer: the former owner works in it with their role there.
          role: ownRole ?? ('owner' as const),
          own: true,
        },
        ...received.map((store) => ({ ...store, role: 'owner' as const, own: false })),
        ...memberships.map((membership) => ({
          storeId: membership.storeId,
          storeName: membership.storeName,
          role: membership.readOnlySince ? READ_ONLY_ROLE : membership.role,
          own: false,
        })),
      ];
    },

    /** A page of the store's activity (owner and admin), newest first, optionally one member's. */
    async auditLog(storeId: string, caller: Caller, query: AuditLogQuery) {
      await requireManager(pool, storeId, caller.userId);
      const before = query.cursor ? parseAuditCursor(query.cursor) : undefined;
      const entries = await teams.listAudit(pool, storeId, {
        limit: query.limit + 1,
        ...(query.actorId ? { actorId: query.actorId } : {}),
        ...(before ? { before } : {}),
      });
      const page = entries.slice(0, query.limit);
      const last = page.at(-1);
      return {
        entries: page.map(({ cursor: _cursor, ...entry }) => entry),
        nextCursor:
          entries.length > query.limit && last
            ? `${last.cursor.createdMicros}_${last.cursor.id}`
            : null,
      };
    },

    /** An action another service reported over the bus (`audit.*_action`), written once. */
    recordReported: (tx: Queryable, event: DomainEvent, action: AuditedAction) =>
      teams.insertAudit(tx, {
        id: event.id,
        storeId: action.storeId,
        actorId: action.actorId,
        action: action.action,
        target: action.target,
        details: action.details,
        ip: action.ip,
        userAgent: action.userAgent,
        at: new Date(event.occurredAt),
      }),

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
