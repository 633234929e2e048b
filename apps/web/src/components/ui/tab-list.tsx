import clsx from 'clsx';

/**
 * A strip of tabs that switches what a page lists: tablist semantics, the chosen tab filled. The
 * strip's layout (`className`) and each tab's size (`tabClassName`) are the page's, as they fit its
 * labels.
 */
export function TabList<K extends string>({
  label,
  tabs,
  selected,
  onSelect,
  className,
  tabClassName,
}: {
  label: string;
  tabs: readonly { key: K; label: string }[];
  selected: K;
  onSelect: (key: K) => void;
  className: string;
  tabClassName: string;
}) {
  return (
    <div role="tablist" aria-label={label} className={className}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={selected === t.key}
          onClick={() => onSelect(t.key)}
          className={clsx(tabClassName, selected === t.key ? 'bg-brand-700 text-white' : 'text-slate-400 hover:text-white')}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
