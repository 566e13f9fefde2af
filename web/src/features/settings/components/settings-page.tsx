import type { ReactNode } from 'react';
import { DeleteAccountSection } from './delete-account-section';
import { MfaSection } from './mfa-section';
import { PasswordSection } from './password-section';
import { PayoutSection } from './payout-section';
import { PlanSection } from './plan-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';

/**
 * /settings: profile, security, payouts, plan and the account itself. The payout destination
 * and the plan's billing belong to their own features; the route hands them in.
 */
export function SettingsPage({
  payoutDestination,
  planBilling,
  brand,
}: {
  payoutDestination: ReactNode;
  planBilling: ReactNode;
  brand: ReactNode;
}) {
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
          {brand}
          <PasswordSection />
          <MfaSection />
          <SessionsSection />
          <DeleteAccountSection />
        </div>
      </div>
    </div>
  );
}
