import {
  formatBps,
  formatFileSize,
  formatUploads,
  planById,
  UPLOADS_COUNT_FILES,
} from '@lockdrop/plans';
import { Link } from 'react-router-dom';
import type { UploadUsage } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';

/** Current plan and how much of this month's upload allowance the seller has used (delivery's count). */
export function PlanCard({
  usage,
  upgradeButton,
}: {
  usage: UseQueryResult<UploadUsage>;
  upgradeButton: ReactNode;
}) {
  const { user } = useSession();
  const plan = planById(user?.plan);
  const used = usage.data?.used;
  const remaining =
    usage.data?.limit == null || used === undefined ? null : Math.max(usage.data.limit - used, 0);

  return (
    <section
      className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      aria-label="Current plan"
    >
      <p className="text-sm font-medium text-slate-600">Current plan</p>
      <p className="mt-1 text-2xl font-bold text-slate-900">{plan.name}</p>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Uploads</dt>
          <dd className="font-medium text-slate-900">{formatUploads(plan)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Used this month</dt>
          <dd className="font-medium text-slate-900">{used ?? '…'}</dd>
        </div>
        {remaining !== null && (
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">Remaining</dt>
            <dd className="font-medium text-slate-900">{remaining}</dd>
          </div>
        )}
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Platform fee</dt>
          <dd className="font-medium text-slate-900">{formatBps(plan.platformFeeBps)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Max file size</dt>
          <dd className="font-medium text-slate-900">{formatFileSize(plan.maxFileBytes)}</dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-500" data-testid="uploads-count-files">
        {UPLOADS_COUNT_FILES}
      </p>
      {plan.id === 'free' ? (
        <div className="mt-5">{upgradeButton}</div>
      ) : (
        <Link
          to={paths.pricing.getHref()}
          className="mt-5 inline-block text-sm font-semibold text-indigo-700 hover:text-indigo-600"
        >
          Upgrade or compare plans
        </Link>
      )}
    </section>
  );
}
