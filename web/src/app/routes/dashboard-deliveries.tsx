import { Seo } from '@/components/seo/seo';
import { DeliveriesScreen } from '@/features/dashboard';

export default function DeliveriesDashboardRoute() {
  return (
    <>
      <Seo
        title="Deliveries — Lockdrop"
        description="Your products with their sales and downloads."
      />
      <DeliveriesScreen />
    </>
  );
}
