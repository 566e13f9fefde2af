import { Seo } from '@/components/seo/seo';
import { RequireAuth } from '@/features/auth';
import { SubscriptionList } from '@/features/billing';
import { PurchasesPage } from '@/features/purchases/components/purchases-page';

const meta = {
  title: 'Your purchases — Lockdrop',
  description: 'Download the files you have bought.',
};

export default function PurchasesRoute() {
  return (
    <RequireAuth>
      <Seo {...meta} />
      <div className="min-h-[60vh] bg-slate-50">
        <PurchasesPage subscriptions={<SubscriptionList />} />
      </div>
    </RequireAuth>
  );
}
