import type { StoreRight, StoreRole } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';

/**
 * The one table of what each store role may do (issue 28). A route that a member acting for a
 * store may use declares the right it needs (`config: { storeRight }`); the auth plugin allows an
 * acting token there only when the actor's role has it. An admin also manages what speaks for
 * the store (brand, webhook endpoints, API keys). Owner-only actions (billing and the plan,
 * payout destination, sale e-mails, account deletion, the owner's own buyer library and
 * profile) get no member right: billing and the payout destination declare `store:owner`,
 * which only an owner who received the store by a transfer (and so acts for it) holds; the
 * account holder's personal routes declare nothing, so nobody acting reaches them.
 */
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
  'webhooks:manage',
  'api-keys:manage',
];

export const STORE_ROLE_RIGHTS: Readonly<Record<StoreRole, readonly StoreRight[]>> = {
  // The store's own account acts with a plain token (no actor claim) and is never checked here.
  // An owner who received the store by a transfer acts for it, and needs the owner's own right.
  owner: [...ADMIN, 'store:owner'],
  admin: ADMIN,
  editor: EDITOR,
  support: SUPPORT,
  accountant: ACCOUNTANT,
};

export function roleHasRight(role: StoreRole, right: StoreRight): boolean {
  return STORE_ROLE_RIGHTS[role]?.includes(right) ?? false;
}

export const NOT_ALLOWED_FOR_ROLE = 'not_allowed_for_role';

/**
 * Default deny: an actor may use a route only if the route declares a right and the actor's role
 * has it. `right` undefined (a route nobody annotated yet) refuses every acting token.
 */
export function assertActorMay(role: StoreRole, right: StoreRight | undefined): void {
  if (right && roleHasRight(role, right)) return;
  throw new AppError(
    NOT_ALLOWED_FOR_ROLE,
    403,
    right
      ? `Your role in this store (${role}) cannot do this`
      : 'Only the store owner can do this; switch back to your own account for your own things',
    { role, ...(right ? { requiredRight: right } : {}) },
  );
}
