import { useEffect } from 'react';
import { About } from './about';
import { CallToAction } from './cta';
import { Defi } from './defi';
import { Exchanges } from './exchanges';
import { Faq } from './faq';
import { Footer } from './footer';
import { HowToStart } from './how-to-start';
import { Partners } from './partners';
import { Roadmap } from './roadmap';
import { Wallets } from './wallets';

/** The sections under the hero: a chunk of their own, fetched while the hero paints. */
export default function BelowTheFold() {
  // A link to /#FAQ arrives before its section exists, so the browser's own jump to it found nothing.
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);
  return (
    <>
      <Partners />
      <HowToStart />
      <Exchanges />
      <Wallets />
      <About />
      <Defi />
      <Roadmap />
      <Faq />
      <CallToAction />
    </>
  );
}

/** The footer, from the same chunk. */
export function LandingFooter() {
  return <Footer />;
}
