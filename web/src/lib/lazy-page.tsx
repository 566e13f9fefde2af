import { use, type ComponentType, type ReactNode } from 'react';

export interface LazyPage<P extends object> {
  (props: P): ReactNode;
  preload: () => Promise<void>;
}

/** A promise carrying its outcome where React's use() reads it, so a settled one never suspends. */
type TrackedPromise<T> = Promise<T> & {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

function tracked<T>(promise: Promise<T>): TrackedPromise<T> {
  const result = promise as TrackedPromise<T>;
  result.status = 'pending';
  result.then(
    (value) => {
      result.status = 'fulfilled';
      result.value = value;
    },
    (reason: unknown) => {
      result.status = 'rejected';
      result.reason = reason;
    },
  );
  return result;
}

/**
 * A code-split page. Unlike React.lazy it renders synchronously once preloaded, so the client can
 * load the current route's chunk first and then hydrate the prerendered HTML without a mismatch.
 * It calls use() on every render, loaded or not: React 19.3 warns about (and the hydration test
 * caught) a use() that suspends once and is skipped on the retry.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyPage<P> {
  let component: TrackedPromise<ComponentType<P>> | undefined;
  const loadComponent = () => (component ??= tracked(load().then((module) => module.default)));
  const preload = () => loadComponent().then(() => undefined);

  function Page(props: P) {
    const Component = use(loadComponent() as Promise<ComponentType<P>>);
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}
