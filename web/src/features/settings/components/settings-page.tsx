import type { ReactNode } from 'react';
import { useActing } from '@/features/auth';
import { actingSections } from '../lib/acting-sections';
import { ApiKeysSection } from './api-keys-section';
import { DeleteAccountSection } from './delete-account-section';
import { MfaSection } from './mfa-section';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { PayoutSection } from './payout-section';
import { PlanSection } from './plan-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';
import { SettingsCard } from './settings-card';

/**
 * /settings: profile, security, payouts, plan, webhooks and the account itself. The payout destination
 * and the plan's billing belong to their own features; the route hands them in.
 */
export function SettingsPage({
  payoutDestination,
  planBilling,
  webhooks,
  brand,
  domain,
  team,
  activity,
}: {
  payoutDestination: ReactNode;
  planBilling: ReactNode;
  webhooks: ReactNode;
  brand: ReactNode;
  domain: ReactNode;
  team: ReactNode;
  activity: ReactNode;
}) {
  const acting = useActing();
  // Acting for another store: the person's own settings wait until they switch back. The team
  // and its activity are shown; the rest follows the role's rights (actingSections).
  if (acting) {
    const sections = actingSections(acting.rights);
    const speaksForStore =
      sections.brand || sections.domain || sections.webhooks || sections.apiKeys;
    return (
      <div className="bg-slate-50">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Settings</h1>
          <p className="mt-4 text-sm text-slate-700" data-testid="acting-note">
            {acting.role === 'owner' ? (
              <>
                You own <strong>{acting.storeName}</strong>: its payouts, plan, team, brand, domain,
                webhooks and API keys are yours here; switch back to your own store (in the seller
                menu) for your own account.
              </>
            ) : speaksForStore ? (
              <>
                You are working in <strong>{acting.storeName}</strong> as {acting.role}: its team,
                brand, domain, webhooks and API keys are yours to manage here. Its payouts, plan and
                account settings stay with its owner; switch back to your own store (in the seller
                menu) for your own settings.
              </>
            ) : (
              <>
                You are working in <strong>{acting.storeName}</strong> as {acting.role}. Its
                payouts, plan and account settings stay with its owner; switch back to your own
                store (in the seller menu) for your own settings.
              </>
            )}
          </p>
          <div className="mt-10 space-y-8">
            {sections.payouts && <PayoutSection destination={payoutDestination} />}
            {sections.plan && <PlanSection billing={planBilling} />}
            {team}
            {activity}
            {sections.brand && brand}
            {sections.domain && domain}
            {sections.webhooks && <WebhooksSection webhooks={webhooks} />}
            {sections.saleEmails && <NotificationsSection />}
            {sections.apiKeys && <ApiKeysSection />}
          </div>
        </div>
      </div>
    );
  }
  return (
    <div className="bg-slate-50">
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
        <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">My Account</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          Settings
        </h1>
        <div className="mt-10 space-y-8">
          <ProfileSection />
          <PayoutSection destination={payoutDestination} />
          <PlanSection billing={planBilling} />
          {team}
          {activity}
          {brand}
          {domain}
          <WebhooksSection webhooks={webhooks} />
          <NotificationsSection />
          <PasswordSection />
          <MfaSection />
          <SessionsSection />
          <ApiKeysSection />
          <DeleteAccountSection />
        </div>
      </div>
    </div>
  );
}

function WebhooksSection({ webhooks }: { webhooks: ReactNode }) {
  return (
    <SettingsCard
      id="webhooks"
      title="Webhooks"
      description="Lockdrop sends signed events (Standard Webhooks) to your endpoints when a sale, subscription, product or payout changes."
    >
      {webhooks}
    </SettingsCard>
  );
}
