import { useActing, useSession } from '@/features/auth';
import type { Product, StoreRight, SubscriberFigures, UploadUsage } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PlanCard } from './plan-card';
import { QuickActions } from './quick-actions';
import { RecentProducts } from './recent-products';
import { RecentSales } from './recent-sales';
import { StatCards } from './stat-cards';
import { SubscribersCard } from './subscribers-card';

/** What the dashboard shows from other features; the route composes it in. */
export interface DashboardHomeParts {
  /** onboarding: the offer to finish setting up, until it is done. */
  onboardingNotice: ReactNode;
  /** products: the link of a product just created and published, to share. */
  shareNotice: ReactNode;
  /** payouts: asks the seller to confirm a changed payout destination. */
  payoutNotice: ReactNode;
  /** billing: the way from the free plan to Pro. */
  upgradeButton: ReactNode;
  products: UseQueryResult<Product[]>;
  uploadUsage: UseQueryResult<UploadUsage>;
  subscriberFigures: UseQueryResult<SubscriberFigures>;
}

/** /dashboard and /lockdrop/dashboard: the signed-in seller's real figures (last 30 days). */
export function DashboardHome({
  onboardingNotice,
  shareNotice,
  payoutNotice,
  upgradeButton,
  products,
  uploadUsage,
  subscriberFigures,
}: DashboardHomeParts) {
  const { profile } = useSession();
  const acting = useActing();
  // Acting for a store (issue 28): only what the role may see; the plan and payout notices are
  // the owner's. The server refuses the rest anyway; this keeps errors off the screen.
  const may = (right: StoreRight) => !acting || acting.rights.includes(right);
  if (acting)
    return (
      <div className="space-y-6">
        <header>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{acting.storeName}</h1>
          <p className="mt-1 text-sm text-slate-600">
            You are working in this store as {acting.role}.
          </p>
        </header>
        {may('analytics:read') && <StatCards days={30} />}
        <div className="grid gap-6 lg:grid-cols-2">
          {may('products:read') && <RecentProducts products={products} />}
          {may('sales:read') && <RecentSales />}
        </div>
      </div>
    );
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">
          {/* A seller with no product yet has never been here before, in effect. */}
          {products.data?.length ? 'Welcome back' : 'Welcome'}, {profile?.fullName || 'Creator'}
        </h1>
        <p className="mt-1 text-sm text-slate-600">Your figures for the last 30 days.</p>
      </header>
      {shareNotice}
      {onboardingNotice}
      {payoutNotice}
      <StatCards days={30} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <RecentProducts products={products} />
          <RecentSales />
        </div>
        <div className="space-y-6">
          <PlanCard usage={uploadUsage} upgradeButton={upgradeButton} />
          <SubscribersCard figures={subscriberFigures} />
        </div>
      </div>
      <QuickActions />
    </div>
  );
}
