import { TYPED_WORDS } from './behaviour';

/**
 * The headline's last words: the first one whole, as the page is painted; behaviour.ts types,
 * holds, deletes and moves on (or, with reduced motion, swaps whole words). Screen readers get the
 * three words once instead of every keystroke.
 */
export function TypingHeadline() {
  return (
    <span className="block min-h-[1.2em]">
      <span className="sr-only">{TYPED_WORDS.join(', ')}</span>
      <span aria-hidden data-testid="typed-word" className="bg-gradient-to-r from-brand-300 via-brand-400 to-gold-400 bg-clip-text text-transparent">
        {TYPED_WORDS[0]}
      </span>
      <span aria-hidden className="ml-1 inline-block h-[0.85em] w-[3px] translate-y-[0.08em] rounded-full bg-brand-300 motion-safe:animate-pulse" />
    </span>
  );
}
