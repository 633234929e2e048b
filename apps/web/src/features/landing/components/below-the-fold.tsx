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

/** The sections under the hero. */
export default function BelowTheFold() {
  // Inside the app, a move to /#FAQ renders the page after the browser looked for the anchor.
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

/** The footer. */
export function LandingFooter() {
  return <Footer />;
}
