import { useEffect, useState } from 'react';

const WORDS = ['Passive Income', 'Secure Returns', 'Daily Rewards'];

/** Types a word, pauses, deletes it, and moves to the next. */
export function TypingHeadline() {
  const [index, setIndex] = useState(0);
  const [text, setText] = useState('');
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const word = WORDS[index % WORDS.length]!;
    if (reduced) {
      setText(word);
      const t = setTimeout(() => setIndex((i) => i + 1), 2500);
      return () => clearTimeout(t);
    }
    let delay = deleting ? 45 : 90;
    if (!deleting && text === word) delay = 1600;
    if (deleting && text === '') delay = 300;
    const t = setTimeout(() => {
      if (!deleting && text === word) setDeleting(true);
      else if (deleting && text === '') {
        setDeleting(false);
        setIndex((i) => i + 1);
      } else setText(deleting ? word.slice(0, text.length - 1) : word.slice(0, text.length + 1));
    }, delay);
    return () => clearTimeout(t);
  }, [text, deleting, index]);
  return (
    <span className="bg-gradient-to-r from-brand-300 to-gold-400 bg-clip-text text-transparent" aria-live="polite">
      {text}
      <span className="ml-0.5 inline-block w-[3px] animate-pulse bg-brand-300 align-middle" style={{ height: '0.9em' }} aria-hidden />
    </span>
  );
}
