import { Seo } from '@/components/seo/seo';
import { RequireAuth } from '@/features/auth';
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
        <PurchasesPage />
      </div>
    </RequireAuth>
  );
}
