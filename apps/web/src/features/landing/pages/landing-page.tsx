import { lazy, Suspense } from 'react';
import { Hero } from '../components/hero';
import { Navbar } from '../components/navbar';

const BelowTheFold = lazy(() => import('../components/below-the-fold'));
const LandingFooter = lazy(async () => ({ default: (await import('../components/below-the-fold')).LandingFooter }));

/** The public landing page (/): the sections carry the spec's anchors #Home … #FAQ. */
export default function LandingPage() {
  return (
    <div className="min-h-dvh overflow-x-clip bg-surface-950">
      <Navbar />
      <main>
        <Hero />
        {/* Keeps the page tall while the rest loads, so the hero does not jump. */}
        <Suspense fallback={<div className="min-h-dvh" aria-hidden />}>
          <BelowTheFold />
        </Suspense>
      </main>
      <Suspense>
        <LandingFooter />
      </Suspense>
    </div>
  );
}
