import { About } from '../components/about';
import { CallToAction } from '../components/cta';
import { Defi } from '../components/defi';
import { Exchanges } from '../components/exchanges';
import { Faq } from '../components/faq';
import { Footer } from '../components/footer';
import { Hero } from '../components/hero';
import { HowToStart } from '../components/how-to-start';
import { Navbar } from '../components/navbar';
import { Partners } from '../components/partners';
import { Roadmap } from '../components/roadmap';
import { Wallets } from '../components/wallets';

/** The public landing page (/): the sections carry the spec's anchors #Home … #FAQ. */
export default function LandingPage() {
  return (
    <div className="min-h-dvh overflow-x-clip bg-surface-950">
      <Navbar />
      <main>
        <Hero />
        <Partners />
        <HowToStart />
        <Exchanges />
        <Wallets />
        <About />
        <Defi />
        <Roadmap />
        <Faq />
        <CallToAction />
      </main>
      <Footer />
    </div>
  );
}
