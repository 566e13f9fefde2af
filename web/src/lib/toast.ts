import { ApiError } from './api';

/*
 * The one way the app shows toasts. sonner loads on the first toast rather than with the page,
 * which keeps it out of the landing page's initial JavaScript.
 */

/*
 * Errors share one toast: a new one replaces the last instead of stacking on a stale message
 * about something already fixed.
 */
const ERROR_TOAST = { id: 'error' } as const;

type Listener = () => void;
const listeners = new Set<Listener>();
let hostRequested = false;
let hostReady: (() => void) | undefined;
const ready = new Promise<void>((resolve) => {
  hostReady = resolve;
});

export const toasterHost = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isRequested: () => hostRequested,
  /** Called by the host once sonner's <Toaster> is mounted. */
  markReady: () => hostReady?.(),
};

async function sonner() {
  if (!hostRequested) {
    hostRequested = true;
    for (const listener of listeners) listener();
  }
  const [module] = await Promise.all([import('sonner'), ready]);
  return module.toast;
}

export const notify = {
  success(message: string, description?: string) {
    void sonner().then((toast) => toast.success(message, { description }));
  },
  /** Something the user waits for, said once (e.g. 'Preparing your copy…'). */
  info(message: string, description?: string) {
    void sonner().then((toast) => toast.info(message, { description }));
  },
  /** A failure with a title and an explanation, e.g. 'Sign In Failed' / the server's message. */
  problem(title: string, description: string) {
    void sonner().then((toast) => toast.error(title, { ...ERROR_TOAST, description }));
  },
  error(error: unknown, fallback = 'An unexpected error occurred') {
    const message =
      error instanceof ApiError ? error.message : typeof error === 'string' ? error : fallback;
    void sonner().then((toast) => toast.error(message, ERROR_TOAST));
  },
};
