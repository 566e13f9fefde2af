import { STORE_ROLE_RIGHTS, type StoreRole } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import { actingSections } from './acting-sections';

/** The rights `GET /api/auth/session` lists per role: the one table servers enforce (issue 28). */
const RIGHTS = STORE_ROLE_RIGHTS;

const shown = (role: StoreRole) =>
  Object.entries(actingSections(RIGHTS[role]))
    .filter(([, visible]) => visible)
    .map(([section]) => section);

describe('Settings while acting for a store (issue 28)', () => {
  it("shows an admin the store's brand, domain, webhooks and API keys, but not its payouts, plan or sale e-mails", () => {
    expect(shown('admin')).toEqual(['brand', 'domain', 'webhooks', 'apiKeys']);
  });

  it('shows an owner by transfer everything that speaks for the store', () => {
    expect(shown('owner')).toEqual([
      'payouts',
      'plan',
      'brand',
      'domain',
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
