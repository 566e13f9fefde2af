import { formatBps, planById, planFeatureLines } from '@lockdrop/plans';
import { ButtonLink } from '@/components/ui/button';
import type { ReactNode } from 'react';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { Panel } from '@/components/ui/panel';

/** /dashboard/settings: the plan, and the way to the account settings (profile, password, payouts). */
export function DashboardSettings({ upgradeButton }: { upgradeButton: ReactNode }) {
  const { user, profile } = useSession();
  const plan = planById(user?.plan);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">Settings</h1>
      <Panel title="Account">
        <p className="text-sm text-slate-600">
          Signed in as <strong className="text-slate-900">{profile?.fullName || 'Creator'}</strong>{' '}
          ({user?.email}). Profile, password, sessions and payout method are managed in your account
          settings.
        </p>
        <ButtonLink to={paths.settings.getHref()} variant="secondary" size="sm" className="mt-4">
          Open account settings
        </ButtonLink>
      </Panel>
      <Panel title={`${plan.name} plan`}>
        <p className="text-sm text-slate-600">
          Platform fee {formatBps(plan.platformFeeBps)} per sale.
        </p>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
          {planFeatureLines(plan).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {plan.id === 'free' ? (
          <div className="mt-4">{upgradeButton}</div>
        ) : (
          <ButtonLink to={`${paths.settings.getHref()}#plan`} size="sm" className="mt-4">
            Manage plan
          </ButtonLink>
        )}
      </Panel>
    </div>
  );
}
