import { paths } from '@/config/paths';
import { recallCheckout } from '@/lib/checkout-memory';
import { ButtonLink } from './ui/button';

/** Back to the product of a failed or cancelled checkout; its page refills the e-mail. */
export function TryAgainLink({ txRef }: { txRef: string | null }) {
  const checkout = recallCheckout(txRef);
  if (!checkout) return null;
  return (
    <ButtonLink to={`${paths.products.detail.getHref(checkout.productId)}#purchase`}>
      Try again
    </ButtonLink>
  );
}
