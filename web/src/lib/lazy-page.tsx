import { use, type ComponentType, type ReactNode } from 'react';

export interface LazyPage<P extends object> {
  (props: P): ReactNode;
  preload: () => Promise<void>;
}

/**
 * A code-split page. Unlike React.lazy it renders synchronously once preloaded, so the client can
 * load the current route's chunk first and then hydrate the prerendered HTML without a mismatch.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): LazyPage<P> {
  let Loaded: ComponentType<P> | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= load().then((module) => {
      Loaded = module.default;
    }));

  function Page(props: P) {
    if (!Loaded) use(preload());
    const Component = Loaded as ComponentType<P>;
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}
