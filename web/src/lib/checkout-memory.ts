/*
 * The checkouts this tab started, kept in sessionStorage across the trip to the provider's page,
 * so a failed or cancelled payment can send the buyer back to the product with the e-mail they
 * typed ('Try again') — the provider's redirect carries only the tx_ref.
 */

const KEY = 'lockdrop:checkouts';
const KEPT = 5;

export interface StartedCheckout {
  txRef: string;
  productId: string;
  email: string;
}

function read(): StartedCheckout[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as StartedCheckout[]) : [];
  } catch {
    return [];
  }
}

export function rememberCheckout(checkout: StartedCheckout): void {
  const others = read().filter((kept) => kept.txRef !== checkout.txRef);
  try {
    sessionStorage.setItem(KEY, JSON.stringify([checkout, ...others].slice(0, KEPT)));
  } catch {
    // Storage full or disabled: 'Try again' then falls back to Home only.
  }
}

/** The checkout of `txRef`, else (the provider sent no reference) the latest one. */
export function recallCheckout(txRef: string | null): StartedCheckout | null {
  const kept = read();
  return (txRef ? kept.find((checkout) => checkout.txRef === txRef) : kept[0]) ?? null;
}

/** The e-mail last typed at checkout of this product in this tab. */
export const recallEmail = (productId: string): string | undefined =>
  read().find((checkout) => checkout.productId === productId)?.email;
