import { useEffect, useSyncExternalStore } from 'react';
import type { PublicBrand } from '@lockdrop/contracts';

/*
 * The seller's brand of the page on screen (product, store, payment result). The public layout
 * reads it to show the seller's header instead of Lockdrop's; null keeps the Lockdrop look.
 */
let current: PublicBrand | null = null;
const listeners = new Set<() => void>();

function set(brand: PublicBrand | null) {
  if (brand === current) return;
  current = brand;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Shows `brand` around the page while the calling page is mounted. */
export function usePageBrand(brand: PublicBrand | null | undefined) {
  const value = brand ?? null;
  const key = value ? JSON.stringify(value) : '';
  useEffect(() => {
    set(value);
    return () => set(null);
    // The brand's content, not its object identity, decides (every refetch makes a new object).
  }, [key]);
}

export const useCurrentPageBrand = () =>
  useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );

/** A page's title under the brand on screen: "Your receipt — Dawn Recordings", else "— Lockdrop". */
export const useBrandedTitle = (page: string) =>
  `${page} — ${useCurrentPageBrand()?.name ?? 'Lockdrop'}`;

/** CSS custom property the branded pages' buttons and links use (`--brand-accent`). */
export const brandAccentStyle = (brand: PublicBrand | null) =>
  brand?.accentColour
    ? ({ '--brand-accent': brand.accentColour } as Record<string, string>)
    : undefined;
