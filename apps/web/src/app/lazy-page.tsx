import { lazy, useState, type ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** A page (or layout) loaded on demand that renders at once, without suspending, when its code was loaded before. */
export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the code (once) so the first render needs no Suspense fallback. */
  preload: () => Promise<void>;
}

/**
 * React.lazy suspends on its first render even when the module is already in memory, and at start
 * that commits the Suspense fallback (a spinner) over the HTML the page arrived with, then the page
 * a moment later. start.tsx preloads the current route's code first, so the first commit is the page.
 */
export function lazyPage(load: Loader): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () => (loading ??= load().then((m) => void (loaded = m.default)));
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded! };
  });
  const Page = () => {
    // Chosen once per mount: switching between the two later would remount the page and lose its state.
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  };
  Page.preload = preload;
  return Page;
}

/** The same for a module whose component is a named export. */
export const lazyNamed = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyPage =>
  lazyPage(async () => ({ default: (await load())[name] }));
