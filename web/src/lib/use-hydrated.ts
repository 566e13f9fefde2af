import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * false while React hydrates prerendered HTML, true afterwards (and always in a client render).
 * Data that the prerendered HTML could not know — like the session — must wait for this, because
 * React does not patch attributes (an href) that differ during hydration.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
