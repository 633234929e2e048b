import { Mail } from 'lucide-react';
import { Link } from 'react-router';
import { SECTIONS } from '../content';
import { Wordmark } from './brand';
import { SectionLinks } from './section-links';
import { TelegramIcon, XIcon, YoutubeIcon } from './social-icons';

const SUPPORT_EMAIL = 'support@usdtstake.app';
const SOCIALS = [
  { label: 'Telegram', href: 'https://t.me/usdtstake', Icon: TelegramIcon },
  { label: 'X (Twitter)', href: 'https://x.com/usdtstake', Icon: XIcon },
  { label: 'YouTube', href: 'https://www.youtube.com/@usdtstake', Icon: YoutubeIcon },
];
// Rows of 44 px: each link is a fingertip tall on a phone (e2e/ux4.e2e.ts).
const linkClass = 'flex min-h-11 items-center text-slate-400 transition hover:text-white lg:min-h-8';

const ACCOUNT_LINKS = [
  { to: '/signup', label: 'Sign up' },
  { to: '/login', label: 'Login' },
  { to: '/dashboard', label: 'Dashboard' },
];
const LEGAL_LINKS = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-conditions', label: 'Terms & Conditions' },
];

function FooterLinks({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <nav aria-label={title}>
      <h2 className="font-semibold text-white">{title}</h2>
      <ul className="mt-2">
        {links.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className={linkClass}>
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer() {
  return (
    <footer className="border-t border-white/5 bg-surface-900/60 px-4 pb-10 pt-14 text-sm">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-x-6 gap-y-10 lg:grid-cols-[1.6fr_1fr_1fr_1fr]">
        <div className="col-span-2 lg:col-span-1">
          <a href="#Home" className="inline-flex min-h-11 items-center text-lg">
            <Wordmark />
          </a>
          <p className="mt-4 max-w-xs leading-relaxed text-slate-400">
            USDT staking with daily rewards on BSC, Polygon and Tron, backed by a double-entry ledger.
          </p>
          <ul aria-label="Social media" className="mt-5 flex gap-2">
            {SOCIALS.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noreferrer noopener"
                  aria-label={label}
                  title={label}
                  className="flex h-11 w-11 items-center justify-center rounded-xl border border-white/10 text-slate-300 transition hover:border-brand-500/40 hover:text-brand-300"
                >
                  <Icon className="h-4 w-4" />
                </a>
              </li>
            ))}
          </ul>
          <a href={`mailto:${SUPPORT_EMAIL}`} className="mt-2 inline-flex min-h-11 items-center gap-2 text-slate-400 transition hover:text-white">
            <Mail className="h-4 w-4" aria-hidden /> {SUPPORT_EMAIL}
          </a>
        </div>
        <nav aria-label="Explore" className="col-span-2 sm:col-span-1">
          <h2 className="font-semibold text-white">Explore</h2>
          <SectionLinks sections={SECTIONS.slice(1)} className="mt-2 grid grid-cols-2 gap-x-6 sm:grid-cols-1" linkClassName={linkClass} />
        </nav>
        <FooterLinks title="Account" links={ACCOUNT_LINKS} />
        <FooterLinks title="Legal" links={LEGAL_LINKS} />
      </div>
      <div className="mx-auto mt-12 flex max-w-6xl flex-col gap-3 border-t border-white/5 pt-6 text-xs text-slate-400 md:flex-row md:items-center md:justify-between">
        <p>© 2025 USDT Stake. All rights reserved.</p>
        <p className="max-w-xl md:text-right">
          Crypto assets are volatile. Staking carries risk, including the loss of what you stake, and past rewards do not promise future ones.
        </p>
      </div>
    </footer>
  );
}
