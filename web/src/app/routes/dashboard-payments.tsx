import { Seo } from '@/components/seo/seo';
import { PaymentsScreen } from '@/features/dashboard';
import { PayoutsPanel, useRefreshPayouts } from '@/features/payouts';

export default function PaymentsDashboardRoute() {
  const refreshPayouts = useRefreshPayouts();
  return (
    <>
      <Seo
        title="Payments — Lockdrop"
        description="Your sales history with fees, earnings and refunds."
      />
      <PaymentsScreen payouts={<PayoutsPanel />} onRefunded={refreshPayouts} />
    </>
  );
}
