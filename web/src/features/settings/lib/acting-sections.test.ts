import type { StoreRight, StoreRole } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import { actingSections } from './acting-sections';

/** The rights `GET /api/auth/session` lists per role (libs/auth's STORE_ROLE_RIGHTS, issue 28). */
const EDITOR: StoreRight[] = [
  'products:read',
  'products:write',
  'files:read',
  'files:write',
  'discounts:read',
  'discounts:write',
  'buyer-updates:write',
];
const SUPPORT: StoreRight[] = ['sales:read', 'refunds:write', 'buyers:read'];
const ACCOUNTANT: StoreRight[] = ['sales:read', 'payouts:read', 'analytics:read', 'exports:read'];
const ADMIN: StoreRight[] = [
  ...new Set([...EDITOR, ...SUPPORT, ...ACCOUNTANT]),
  'payouts:write',
  'brand:manage',
  'webhooks:manage',
  'api-keys:manage',
];
const RIGHTS: Record<StoreRole, StoreRight[]> = {
  owner: [...ADMIN, 'store:owner'],
  admin: ADMIN,
  editor: EDITOR,
  support: SUPPORT,
  accountant: ACCOUNTANT,
};

const shown = (role: StoreRole) =>
  Object.entries(actingSections(RIGHTS[role]))
    .filter(([, visible]) => visible)
    .map(([section]) => section);

describe('Settings while acting for a store (issue 28)', () => {
  it("shows an admin the store's brand, webhooks and API keys, but not its payouts, plan or sale e-mails", () => {
    expect(shown('admin')).toEqual(['brand', 'webhooks', 'apiKeys']);
  });

  it('shows an owner by transfer everything that speaks for the store', () => {
    expect(shown('owner')).toEqual([
      'payouts',
      'plan',
      'brand',
      'webhooks',
      'saleEmails',
      'apiKeys',
    ]);
  });

  it('shows editors, support and accountants (and so read-only members) none of them', () => {
    for (const role of ['editor', 'support', 'accountant'] as const)
      expect([role, shown(role)]).toEqual([role, []]);
  });
});
