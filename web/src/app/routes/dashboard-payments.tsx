import { Seo } from '@/components/seo/seo';
import { PaymentsScreen } from '@/features/dashboard';
import { PayoutsPanel } from '@/features/payouts';

export default function PaymentsDashboardRoute() {
  return (
    <>
      <Seo
        title="Payments — Lockdrop"
        description="Your sales history with fees, earnings and refunds."
      />
      <PaymentsScreen payouts={<PayoutsPanel />} />
    </>
  );
}
