import clsx from 'clsx';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

/**
 * Whether the element's content runs on past its right edge (and is not scrolled to the end):
 * a phone shows no scrollbar, so without a hint the cut-off columns or tabs look like the end.
 */
export function useMoreToTheRight(ref: RefObject<HTMLElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setMore(el.scrollLeft + el.clientWidth < el.scrollWidth - 2);
    update();
    el.addEventListener('scroll', update, { passive: true });
    // jsdom and old browsers have no ResizeObserver: the hint then follows scrolling only.
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resize?.observe(el);
    const observeChildren = () => {
      for (const child of Array.from(el.children)) resize?.observe(child);
    };
    observeChildren();
    // Children added later (a table that loads after mount, a row of tabs) are watched too, and
    // their arrival is itself a change: one that widens the content without changing the region's
    // height, or resizing what was there, would otherwise go unseen until a scroll.
    const added =
      typeof MutationObserver === 'undefined'
        ? null
        : new MutationObserver(() => {
            observeChildren();
            update();
          });
    added?.observe(el, { childList: true });
    return () => {
      el.removeEventListener('scroll', update);
      resize?.disconnect();
      added?.disconnect();
    };
  }, [ref]);
  return more;
}

/** The fade on the right edge while there is more to scroll to (a mask: it works on any background). */
export const FADE_RIGHT = '[mask-image:linear-gradient(to_right,black_calc(100%-3rem),transparent)]';

/**
 * A horizontally scrolling region that says when it holds more than it shows: the right edge
 * fades and a line under it says to scroll. Reachable and scrollable by keyboard (tabIndex 0 and a
 * name), as DataTable's region is.
 */
export function ScrollX({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const more = useMoreToTheRight(ref);
  return (
    <div className={className}>
      <div ref={ref} role="region" aria-label={label} tabIndex={0} className={clsx('overflow-x-auto', more && FADE_RIGHT)}>
        {children}
      </div>
      {more ? <p className="mt-1 text-right text-xs text-slate-400">Scroll sideways for more →</p> : null}
    </div>
  );
}
