import { z } from 'zod';

/**
 * Team seats (issue 28). A store is a seller account (its id is the owner's user id); members
 * act for it with one of these roles. What each role may do is one table, `STORE_ROLE_RIGHTS`
 * below: `libs/auth` enforces it on every server; the web reads a member's rights from the
 * session (its tests read this table), never decides them.
 */
export const storeRoleSchema = z.enum(['owner', 'admin', 'editor', 'support', 'accountant']);
export type StoreRole = z.infer<typeof storeRoleSchema>;
/** Roles an invite or a role change may give: there is one owner, and it is never handed out here. */
export const memberRoleSchema = z.enum(['admin', 'editor', 'support', 'accountant']);
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** The rights a route may declare (`config: { storeRight }`); owner-only actions have none. */
export const storeRightSchema = z.enum([
  'products:read',
  'products:write',
  'files:read',
  'files:write',
  'discounts:read',
  'discounts:write',
  'buyer-updates:write',
  'sales:read',
  'refunds:write',
  'buyers:read',
  'payouts:read',
  'analytics:read',
  'exports:read',
  // Withdrawing the available balance now (to the owner's destination): admin and owner.
  'payouts:write',
  // What speaks for the whole store but is not ownership, billing or where payouts go: admin
  // and owner. Each covers reading and changing its settings (they hold no one else's data).
  // The store's brand: handle, name, logo, accent colour.
  'brand:manage',
  // The store's custom domain (Business): connecting, verifying, disconnecting.
  'domain:manage',
  // The store's outgoing webhook endpoints: secrets, tests, the delivery log, redeliveries.
  'webhooks:manage',
  // The store's API keys: made for the store (the seller account), never for the member.
  'api-keys:manage',
  // The owner's alone (billing, where payouts go): what an owner who received the
  // store by a transfer, and so acts for it, needs; no member role has it.
  'store:owner',
]);
export type StoreRight = z.infer<typeof storeRightSchema>;

const EDITOR: readonly StoreRight[] = [
  'products:read',
  'products:write',
  'files:read',
  'files:write',
  'discounts:read',
  'discounts:write',
  'buyer-updates:write',
];
const SUPPORT: readonly StoreRight[] = ['sales:read', 'refunds:write', 'buyers:read'];
const ACCOUNTANT: readonly StoreRight[] = [
  'sales:read',
  'payouts:read',
  'analytics:read',
  'exports:read',
];
// Issue 28: "admin: everything but ownership and payout destination".
const ADMIN: readonly StoreRight[] = [
  ...new Set([...EDITOR, ...SUPPORT, ...ACCOUNTANT]),
  'payouts:write',
  'brand:manage',
  'domain:manage',
  'webhooks:manage',
  'api-keys:manage',
];

/**
 * The one table of what each store role may do. Owner-only actions (billing, payout destination,
 * team management, account deletion, the owner's own buyer library and profile) get no member
 * right: billing and the payout destination declare `store:owner`, which only an owner who
 * received the store by a transfer (and so acts for it) holds.
 */
export const STORE_ROLE_RIGHTS: Readonly<Record<StoreRole, readonly StoreRight[]>> = {
  // The store's own account acts with a plain token (no actor claim) and is never checked.
  // An owner who received the store by a transfer acts for it, and needs the owner's own right.
  owner: [...ADMIN, 'store:owner'],
  admin: ADMIN,
  editor: EDITOR,
  support: SUPPORT,
  accountant: ACCOUNTANT,
};

/** While a member acts for a store: `GET /api/auth/session`'s `acting`. */
export const actingSchema = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  role: storeRoleSchema,
  rights: z.array(storeRightSchema),
  /**
   * Past the plan's seats after a downgrade: `role` is then `accountant` (read rights only)
   * until the owner keeps or removes this member.
   */
  readOnly: z.boolean(),
});
export type Acting = z.infer<typeof actingSchema>;

/** `GET /api/auth/stores`: the stores the signed-in person belongs to (their own first). */
export const myStoresSchema = z.object({
  stores: z.array(
    z.object({ storeId: z.uuid(), storeName: z.string(), role: storeRoleSchema, own: z.boolean() }),
  ),
});
export type MyStores = z.infer<typeof myStoresSchema>;

export const storeMemberSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  fullName: z.string(),
  role: storeRoleSchema,
  joinedAt: z.iso.datetime(),
  /** Past the plan's seats: only the accountant's read rights until kept or removed. */
  readOnly: z.boolean(),
});
export type StoreMember = z.infer<typeof storeMemberSchema>;

export const storeInviteSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: memberRoleSchema,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});
export type StoreInvite = z.infer<typeof storeInviteSchema>;

/** `GET /api/stores/:storeId/members`: members, pending invites and the plan's seats. */
export const teamSchema = z.object({
  members: z.array(storeMemberSchema),
  invites: z.array(storeInviteSchema),
  /** Seats besides the owner: null = unlimited; members and pending invites both take one. */
  seats: z.number().int().nullable(),
  seatsUsed: z.number().int(),
});
export type Team = z.infer<typeof teamSchema>;

export const inviteRequestSchema = z.object({
  email: z.email().max(320),
  role: memberRoleSchema,
});
export type InviteRequest = z.infer<typeof inviteRequestSchema>;

export const roleChangeSchema = z.object({ role: memberRoleSchema });

/** `POST /api/auth/stores/:storeId/owner`: hand the store to one of its admins (re-authenticated). */
export const ownershipTransferRequestSchema = z.object({ userId: z.uuid() });

export const acceptInviteRequestSchema = z.object({ token: z.string().min(20).max(200) });
export const acceptedInviteSchema = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  role: memberRoleSchema,
});

export const auditEntrySchema = z.object({
  id: z.uuid(),
  actorId: z.uuid().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
/** A page of the store's activity, newest first; `nextCursor` asks for the older page. */
export const auditLogSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export const auditLogQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  /** One member's (or the owner's) actions only. */
  actorId: z.uuid().optional(),
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w.:+-]+$/)
    .optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;
export type AuditLog = z.infer<typeof auditLogSchema>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;
