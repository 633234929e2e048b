import { useEffect, useRef } from 'react';
import { enhanceLanding } from '../components/behaviour';
import BelowTheFold, { LandingFooter } from '../components/below-the-fold';
import { Hero } from '../components/hero';
import { Navbar } from '../components/navbar';

/**
 * The public landing page (/): the sections carry the spec's anchors #Home … #FAQ.
 *
 * Markup only. The build pre-renders all of it into index.html, and a visit to / runs no React at
 * all: main.tsx loads behaviour.ts, which brings the navbar, the typing headline and the stake
 * estimator to life on that HTML (issue 32: hydrating this page cost 2 s of scripting on a slow
 * phone for three small moving parts). Inside the app (a move to / after signing out) React renders
 * it and the same behaviour.ts runs on what it rendered.
 */
export default function LandingPage() {
  const page = useRef<HTMLDivElement>(null);
  useEffect(() => enhanceLanding(page.current!), []);
  return (
    <div ref={page} className="min-h-dvh overflow-x-clip bg-surface-950">
      <Navbar />
      <main>
        <Hero />
        <BelowTheFold />
      </main>
      <LandingFooter />
    </div>
  );
}
