import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import { Hero } from '../components/hero';
import { Navbar } from '../components/navbar';
import { useClientValue } from '../components/use-client-value';

const BelowTheFold = lazy(() => import('../components/below-the-fold'));
const LandingFooter = lazy(async () => ({ default: (await import('../components/below-the-fold')).LandingFooter }));

/** Keeps the page tall while the rest loads, so the hero does not jump. */
const Spacer = () => <div className="min-h-dvh" aria-hidden />;

/**
 * The public landing page (/): the sections carry the spec's anchors #Home … #FAQ.
 *
 * The build pre-renders the navbar and the hero only (vite.config.ts): what the first screen shows,
 * painted without JavaScript. The sections below load as their own chunk once the page runs in the
 * browser, so hydration has only the first screen to do (a short main-thread task on a slow phone).
 */
export default function LandingPage() {
  // false while hydrating the build's HTML, true on a fresh render. After hydration the sections
  // mount in a transition: React renders them in slices that yield to the browser, instead of one
  // long synchronous task (what a useSyncExternalStore update would be) blocking the first taps.
  const fresh = useClientValue(() => true, false);
  const [inBrowser, setInBrowser] = useState(fresh);
  useEffect(() => {
    if (!inBrowser) startTransition(() => setInBrowser(true));
  }, [inBrowser]);
  return (
    <div className="min-h-dvh overflow-x-clip bg-surface-950">
      <Navbar />
      <main>
        <Hero />
        <Suspense fallback={<Spacer />}>{inBrowser ? <BelowTheFold /> : <Spacer />}</Suspense>
      </main>
      <Suspense>{inBrowser ? <LandingFooter /> : null}</Suspense>
    </div>
  );
}
