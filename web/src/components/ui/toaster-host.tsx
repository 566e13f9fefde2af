import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { toasterHost } from '@/lib/toast';

const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

function ReadySignal() {
  useEffect(() => {
    // After the Toaster's own effects have subscribed it to new toasts.
    const timer = setTimeout(toasterHost.markReady, 0);
    return () => clearTimeout(timer);
  }, []);
  return null;
}

/** Mounts sonner's Toaster the first time something asks for a toast. */
export function ToasterHost() {
  const requested = useSyncExternalStore(
    toasterHost.subscribe,
    toasterHost.isRequested,
    () => false,
  );
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      {/* Bottom right: at the top they covered the header and its menus. */}
      <Toaster position="bottom-right" richColors closeButton duration={5000} />
      <ReadySignal />
    </Suspense>
  );
}
