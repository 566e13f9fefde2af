import { useParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { StorePage, useStore } from '@/features/brand';
import { PageSpinner } from '@/features/products/components/page-spinner';
import NotFoundRoute from './not-found';
import { usePageBrand } from '@/lib/page-brand';
import { storeDomain } from '@/lib/store-domain';

export default function StoreRoute() {
  // `/s/:handle`, or a custom domain's `/`, which shows the store the domain belongs to.
  const { handle = storeDomain()?.handle ?? '' } = useParams();
  const store = useStore(handle);
  usePageBrand(store.data?.brand);
  if (store.isPending) return <PageSpinner label="Loading store" />;
  if (store.isError) return <NotFoundRoute />;
  const name = store.data.brand?.name ?? store.data.handle;
  return (
    <>
      <Seo title={name} description={`Products from ${name}.`} />
      <StorePage store={store.data} />
    </>
  );
}
