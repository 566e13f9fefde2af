import { Seo } from '@/components/seo/seo';
import { useMay } from '@/features/auth';
import { PaymentsScreen } from '@/features/dashboard';
import { PayoutsPanel, useRefreshPayouts } from '@/features/payouts';

export default function PaymentsDashboardRoute() {
  const refreshPayouts = useRefreshPayouts();
  // Support reads sales to refund them; balances and payouts are for roles with payouts:read.
  const mayReadPayouts = useMay('payouts:read');
  return (
    <>
      <Seo
        title="Payments — Lockdrop"
        description="Your sales history with fees, earnings and refunds."
      />
      <PaymentsScreen
        payouts={mayReadPayouts ? <PayoutsPanel /> : null}
        onRefunded={refreshPayouts}
      />
    </>
  );
}
