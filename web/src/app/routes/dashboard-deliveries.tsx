import { Seo } from '@/components/seo/seo';
import { DeliveriesScreen } from '@/features/dashboard';
import { useMyProducts } from '@/features/products';

export default function DeliveriesDashboardRoute() {
  const products = useMyProducts();
  return (
    <>
      <Seo
        title="Deliveries — Lockdrop"
        description="Your products with their sales and downloads."
      />
      <DeliveriesScreen products={products} />
    </>
  );
}
