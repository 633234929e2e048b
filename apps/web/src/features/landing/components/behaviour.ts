import { NAVBAR_SCROLL_PX } from '@app/core/constants';
import { storage } from '../../../lib/storage';
import { RATES } from '../content';

/*
 * What the landing page does, without React (issue 32: '/' spent 2 s of scripting hydrating a page
 * that is text, links and native <details>). The React components render the markup only; these
 * functions bring the few moving parts to life, on the HTML the build pre-rendered (main.tsx, no
 * React at all on a visit to /) or on the page React rendered inside the app (landing-page.tsx).
 */

/** The navbar's look in each state (navbar.tsx renders the first, the script switches). */
export const NAVBAR_LOOK = {
  top: 'border-transparent bg-transparent',
  scrolled: 'border-white/5 bg-surface-900/90 shadow-lg shadow-black/30 backdrop-blur-md',
  open: 'border-white/5 bg-surface-900 shadow-lg shadow-black/30',
} as const;

const setLook = (el: Element, look: keyof typeof NAVBAR_LOOK) => {
  for (const cls of Object.values(NAVBAR_LOOK).flatMap((l) => l.split(' '))) el.classList.remove(cls);
  el.classList.add(...NAVBAR_LOOK[look].split(' '));
};

/** Transparent over the hero, solid past NAVBAR_SCROLL_PX; the phone menu; 'Dashboard' for a remembered account. */
function navbar(root: ParentNode): () => void {
  const header = root.querySelector<HTMLElement>('[data-testid="navbar"]');
  const button = header?.querySelector<HTMLButtonElement>('[aria-controls="landing-menu"]');
  const menu = header?.querySelector<HTMLElement>('#landing-menu');
  if (!header || !button || !menu) return () => undefined;
  let open = false;
  // What the HTML shows (navbar.tsx): the top of the page, the menu closed. Nothing is written
  // until that changes: a style change of the whole page on load would cost a slow phone its time.
  let shown = 'top-closed';
  const paint = () => {
    const scrolled = window.scrollY > NAVBAR_SCROLL_PX;
    const state = `${scrolled ? 'scrolled' : 'top'}-${open ? 'open' : 'closed'}`;
    if (state === shown) return;
    shown = state;
    header.dataset.scrolled = String(scrolled);
    setLook(header, open ? 'open' : scrolled ? 'scrolled' : 'top');
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    button.querySelector('[data-icon="menu"]')?.toggleAttribute('hidden', open);
    button.querySelector('[data-icon="close"]')?.toggleAttribute('hidden', !open);
  };
  const toggle = () => {
    open = !open;
    paint();
  };
  const onKey = (e: KeyboardEvent) => {
    if (open && e.key === 'Escape') toggle();
  };
  const onMenuClick = (e: Event) => {
    if (open && (e.target as Element).closest('a[href^="#"]')) toggle();
  };
  // The build renders a visitor's page; an account this browser remembers gets 'Dashboard'.
  if (storage.getToken() !== null) {
    for (const a of header.querySelectorAll<HTMLAnchorElement>('a[data-account-link]')) {
      a.href = '/dashboard';
      a.textContent = 'Dashboard';
    }
  }
  paint();
  window.addEventListener('scroll', paint, { passive: true });
  window.addEventListener('keydown', onKey);
  button.addEventListener('click', toggle);
  menu.addEventListener('click', onMenuClick);
  return () => {
    window.removeEventListener('scroll', paint);
    window.removeEventListener('keydown', onKey);
    button.removeEventListener('click', toggle);
    menu.removeEventListener('click', onMenuClick);
  };
}

export const TYPED_WORDS = ['Passive Income', 'Secure Returns', 'Daily Rewards'] as const;
const TYPE_MS = 90;
const DELETE_MS = 45;
const HOLD_MS = 1600;
const GAP_MS = 350;
const REDUCED_HOLD_MS = 3000;

/**
 * Types a word, holds it, deletes it and moves on to the next. With reduced motion the whole word
 * is swapped in place. The first word starts whole (held, then deleted), as the HTML shows it.
 */
function typing(root: ParentNode): () => void {
  const el = root.querySelector<HTMLElement>('[data-testid="typed-word"]');
  if (!el) return () => undefined;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
  let index = 0;
  let text: string = TYPED_WORDS[0];
  let deleting = false;
  let timer: ReturnType<typeof setTimeout>;
  const step = () => {
    const word = TYPED_WORDS[index % TYPED_WORDS.length]!;
    if (reduced) {
      index++;
      text = TYPED_WORDS[index % TYPED_WORDS.length]!;
    } else if (!deleting && text === word) deleting = true;
    else if (deleting && text === '') {
      deleting = false;
      index++;
    } else text = deleting ? word.slice(0, text.length - 1) : word.slice(0, text.length + 1);
    el.textContent = text;
    schedule();
  };
  const schedule = () => {
    const word = TYPED_WORDS[index % TYPED_WORDS.length]!;
    let delay = deleting ? DELETE_MS : TYPE_MS;
    if (!deleting && text === word) delay = HOLD_MS;
    if (deleting && text === '') delay = GAP_MS;
    timer = setTimeout(step, reduced ? REDUCED_HOLD_MS : delay);
  };
  el.textContent = text;
  schedule();
  return () => clearTimeout(timer);
}

export const ESTIMATOR_PRESETS = [100, 500, 1000, 5000] as const;
export const ESTIMATOR_DEFAULT = 1000;
export const ESTIMATOR_MAX = 10_000;
// Made on first use: building an Intl formatter loads locale data, a cost a visit to / does not pay
// until someone moves the estimator (the HTML already shows the default stake's figures).
let formatters: { usd: Intl.NumberFormat; usd0: Intl.NumberFormat } | undefined;
const fmt = () =>
  (formatters ??= {
    usd: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
    usd0: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }),
  });
/** Whole dollars: "$1,000". */
export const usd0 = (amount: number) => fmt().usd0.format(amount);
/** The preset buttons' look, chosen and not (stake-estimator.tsx renders it, the script switches it). */
export const PRESET_LOOK = {
  on: 'border-brand-500/60 bg-brand-500/15 text-brand-200',
  off: 'border-white/10 text-slate-300 hover:bg-white/5',
} as const;

/** Whole cents of `amount` dollars at `percent` %: integer arithmetic, so $50 × 0.5% is exactly 25 cents. */
function centsOf(amount: number, percent: number): number {
  return Math.round((amount * 100 * Math.round(percent * 100)) / 10_000);
}

/** The estimator's three figures for a stake of `amount` dollars, as shown. */
export function estimate(amount: number): { label: string; value: string; strong?: boolean }[] {
  const daily = centsOf(amount, RATES.dailyRoiPercent);
  const { usd } = fmt();
  return [
    { label: 'Daily ROI', value: usd.format(daily / 100) },
    { label: 'Over 30 days', value: usd.format((daily * 30) / 100) },
    { label: `Paid out by day ${RATES.daysToCap}`, value: usd.format(centsOf(amount, RATES.capPercent) / 100), strong: true },
  ];
}

/** The stake estimator: the slider and the presets move the amount and its figures. */
function estimator(root: ParentNode): () => void {
  const box = root.querySelector<HTMLElement>('[data-estimator]');
  const input = box?.querySelector<HTMLInputElement>('input[type="range"]');
  const shown = box?.querySelector<HTMLElement>('[data-estimator-amount]');
  if (!box || !input || !shown) return () => undefined;
  const set = (amount: number) => {
    input.value = String(amount);
    shown.textContent = usd0(amount);
    const figures = estimate(amount);
    box.querySelectorAll<HTMLElement>('[data-estimator-figure]').forEach((dd, i) => (dd.textContent = figures[i]?.value ?? ''));
    box.querySelectorAll<HTMLButtonElement>('[data-preset]').forEach((b) => {
      const on = Number(b.dataset.preset) === amount;
      b.setAttribute('aria-pressed', String(on));
      b.classList.remove(...PRESET_LOOK.on.split(' '), ...PRESET_LOOK.off.split(' '));
      b.classList.add(...PRESET_LOOK[on ? 'on' : 'off'].split(' '));
    });
  };
  const onInput = () => set(Number(input.value));
  const onClick = (e: Event) => {
    const preset = (e.target as Element).closest<HTMLButtonElement>('[data-preset]');
    if (preset) set(Number(preset.dataset.preset));
  };
  // The HTML shows the default stake; a value the browser restored (back to the page) is shown too.
  if (input.value !== String(ESTIMATOR_DEFAULT)) set(Number(input.value) || ESTIMATOR_DEFAULT);
  input.addEventListener('input', onInput);
  box.addEventListener('click', onClick);
  return () => {
    input.removeEventListener('input', onInput);
    box.removeEventListener('click', onClick);
  };
}

/**
 * The sections below the first screen are laid out only near the viewport (section.tsx); a jump to
 * an anchor (#FAQ from the navbar, or in the address) needs them all laid out first, or the
 * browser aims at estimated heights and misses the section.
 */
function anchors(root: ParentNode): () => void {
  const layOutAll = () => document.documentElement.classList.add('landing-full');
  const onClick = (e: Event) => {
    if ((e.target as Element).closest('a[href^="#"]')) layOutAll();
  };
  const id = decodeURIComponent(window.location.hash.slice(1));
  if (id) {
    layOutAll();
    document.getElementById(id)?.scrollIntoView();
  }
  root.addEventListener('click', onClick, true);
  return () => root.removeEventListener('click', onClick, true);
}

/** Brings the landing page under `root` to life; returns what undoes it (the app's page unmounting). */
export function enhanceLanding(root: ParentNode): () => void {
  const undo = [anchors(root), navbar(root), typing(root), estimator(root)];
  return () => undo.forEach((u) => u());
}
