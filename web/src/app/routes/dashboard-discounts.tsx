import { Seo } from '@/components/seo/seo';
import { DiscountsScreen } from '@/features/discounts';
import { useMyProducts } from '@/features/products';
import { CurrencySelect } from '@/features/products/components/currency-select';

export default function DiscountsDashboardRoute() {
  const products = useMyProducts();
  return (
    <>
      <Seo
        title="Discounts — Lockdrop"
        description="Discount codes for your products, with their uses and revenue."
      />
      <DiscountsScreen products={products} CurrencySelect={CurrencySelect} />
    </>
  );
}
