import { randomBytes } from 'node:crypto';
import type { PlanId, StoreRole } from '@lockdrop/contracts';
import { waitFor } from '@lockdrop/testing';
import type { Cluster } from './cluster';
import { verifiedAccount, type Browser, type Shop } from './shop';

/** A person signed in on their own account, with the id identity gave them. */
export interface Person {
  browser: Browser;
  userId: string;
  email: string;
}

export async function person(cluster: Cluster, label: string): Promise<Person> {
  const email = `chaos-${label}-${randomBytes(4).toString('hex')}@example.com`;
  const browser = await verifiedAccount(cluster, email);
  const { user } = await browser.json<{ user: { id: string } }>(
    '/api/auth/session',
    undefined,
    'GET',
  );
  return { browser, userId: user.id, email };
}

/** The plan identity holds for `storeId` (it applies seats when it hears of a change). */
async function identityPlan(cluster: Cluster, storeId: string): Promise<string> {
  const { rows } = await cluster.db.query<{ plan: string }>(
    'SELECT plan FROM identity.profiles WHERE id = $1',
    [storeId],
  );
  return rows[0]!.plan;
}

/**
 * The shop's seller buys `plan` yearly through the sandbox's hosted page, as a seller does; returns
 * once identity has heard of it (payments' `plan.changed`).
 */
export async function buyPlan(cluster: Cluster, shop: Shop, plan: PlanId): Promise<void> {
  const { link } = await shop.seller.json<{ link: string }>('/api/billing/plan/change', {
    plan,
    interval: 'yearly',
  });
  const txRef = new URL(link).pathname.split('/').pop()!;
  const paid = await shop.seller.request(`/sandbox/checkout/${txRef}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  if (paid.status >= 400) throw new Error(`sandbox pay: ${paid.status} ${await paid.text()}`);
  await waitFor(
    async () => (await identityPlan(cluster, shop.sellerId)) === plan,
    60_000,
    `identity to hear of the ${plan} plan`,
  );
}

/** The annual plan cancelled now with a refund: back to Free, seats applied by identity. */
export async function downgradeToFree(cluster: Cluster, shop: Shop): Promise<void> {
  await shop.seller.json('/api/billing/plan/cancel', { refund: true });
  await waitFor(
    async () => (await identityPlan(cluster, shop.sellerId)) === 'free',
    60_000,
    'identity to hear of the Free plan',
  );
}

/** The invite link's token e-mailed to `email` (the newest). */
export async function inviteToken(cluster: Cluster, email: string): Promise<string> {
  return waitFor(
    async () => {
      const { rows } = await cluster.db.query<{ text_body: string }>(
        'SELECT text_body FROM mailbox.messages WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
        [email],
      );
      return /\/invite\?token=([\w-]+)/.exec(rows[0]?.text_body ?? '')?.[1] ?? null;
    },
    30_000,
    `the invitation to ${email}`,
  );
}

/** `by` (owner or admin) invites a new person with `role`; returns them with the invite's token. */
export async function invite(
  cluster: Cluster,
  storeId: string,
  by: Browser,
  label: string,
  role: Exclude<StoreRole, 'owner'>,
): Promise<Person & { token: string }> {
  const invitee = await person(cluster, label);
  await by.json(`/api/auth/stores/${storeId}/invites`, { email: invitee.email, role });
  return { ...invitee, token: await inviteToken(cluster, invitee.email) };
}

/** Invited, accepted, and switched into the store: the person's session acts for it now. */
export async function member(
  cluster: Cluster,
  storeId: string,
  by: Browser,
  label: string,
  role: Exclude<StoreRole, 'owner'>,
): Promise<Person> {
  const joined = await invite(cluster, storeId, by, label, role);
  await joined.browser.json('/api/auth/invites/accept', { token: joined.token });
  await actFor(joined, storeId);
  return joined;
}

/** Switches the person's session into the store; returns the role identity gave. */
export async function actFor(who: Person, storeId: string): Promise<string> {
  const { acting } = await who.browser.json<{ acting?: { role: string } }>(
    `/api/auth/stores/${storeId}/act`,
    {},
  );
  return acting!.role;
}
