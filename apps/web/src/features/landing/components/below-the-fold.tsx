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
