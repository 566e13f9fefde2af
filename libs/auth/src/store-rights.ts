import { STORE_ROLE_RIGHTS, type StoreRight, type StoreRole } from '@lockdrop/contracts';
import { AppError } from '@lockdrop/http';

/**
 * Enforces the one table of what each store role may do (issue 28; `STORE_ROLE_RIGHTS` lives in
 * libs/contracts, where the web's tests read it too). A route that a member acting for a store
 * may use declares the right it needs (`config: { storeRight }`); the auth plugin allows an
 * acting token there only when the actor's role has it. An admin also manages what speaks for
 * the store (brand, custom domain, webhook endpoints, API keys). Owner-only actions (billing and
 * the plan, payout destination, sale e-mails, account deletion, the owner's own buyer library
 * and profile) get no member right: billing and the payout destination declare `store:owner`;
 * the account holder's personal routes declare nothing, so nobody acting reaches them.
 */
export { STORE_ROLE_RIGHTS };

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
