import { useEffect, useState } from 'react';
import { useClientValue } from './use-client-value';

export const TYPED_WORDS = ['Passive Income', 'Secure Returns', 'Daily Rewards'] as const;
const TYPE_MS = 90;
const DELETE_MS = 45;
const HOLD_MS = 1600;
const GAP_MS = 350;
const REDUCED_HOLD_MS = 3000;

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

/**
 * Types a word, holds it, deletes it and moves on to the next. With reduced motion the whole word is
 * swapped in place. Screen readers get the three words once instead of every keystroke.
 */
export function TypingHeadline() {
  // The first word starts whole (held, then deleted), so the page pre-rendered at build time shows
  // a complete headline and reads the same with or without motion; hydration then matches both.
  const reduced = useClientValue(prefersReducedMotion, false);
  const [index, setIndex] = useState(0);
  const [typed, setText] = useState<string>(TYPED_WORDS[0]);
  const [deleting, setDeleting] = useState(false);
  const word = TYPED_WORDS[index % TYPED_WORDS.length]!;
  const text = reduced ? word : typed;

  useEffect(() => {
    if (reduced) {
      const t = setTimeout(() => {
        setIndex(index + 1);
      }, REDUCED_HOLD_MS);
      return () => clearTimeout(t);
    }
    let delay = deleting ? DELETE_MS : TYPE_MS;
    if (!deleting && text === word) delay = HOLD_MS;
    if (deleting && text === '') delay = GAP_MS;
    const t = setTimeout(() => {
      if (!deleting && text === word) setDeleting(true);
      else if (deleting && text === '') {
        setDeleting(false);
        setIndex((i) => i + 1);
      } else setText(deleting ? word.slice(0, text.length - 1) : word.slice(0, text.length + 1));
    }, delay);
    return () => clearTimeout(t);
  }, [reduced, text, deleting, index, word]);

  return (
    <span className="block min-h-[1.2em]">
      <span className="sr-only">{TYPED_WORDS.join(', ')}</span>
      <span aria-hidden data-testid="typed-word" className="bg-gradient-to-r from-brand-300 via-brand-400 to-gold-400 bg-clip-text text-transparent">
        {text}
      </span>
      <span aria-hidden className="ml-1 inline-block h-[0.85em] w-[3px] translate-y-[0.08em] rounded-full bg-brand-300 motion-safe:animate-pulse" />
    </span>
  );
}
