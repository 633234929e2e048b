/** The id of the element the skip link lands on (the layouts' <main>, with tabIndex -1). */
export const MAIN_ID = 'main';

/**
 * "Skip to content": the first stop of the keyboard, shown only when focused; it moves focus past
 * the navigation to the page's content (WCAG 2.4.1).
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={(e) => {
        // Focus moves to <main> itself (the router keeps the hash out of the URL).
        e.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView({ block: 'start' });
      }}
      className="sr-only z-50 min-h-11 min-w-11 rounded-lg bg-brand-700 px-4 py-3 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
    >
      Skip to content
    </a>
  );
}
