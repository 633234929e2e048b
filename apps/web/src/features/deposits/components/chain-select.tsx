import type { TCurrencyOption } from '@app/core/contracts';
import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Icon } from './icon';

function OptionView({ o }: { o: TCurrencyOption }) {
  return (
    // The spaces between the parts make the option's text read 'BSC BNB · USDT', not 'BSCBNB·USDT'.
    <span className="flex min-w-0 items-center gap-2">
      <Icon src={o.chain.iconUrl} alt={o.chain.name} /> <span className="font-medium text-slate-100">{o.chain.shortName || o.chain.name}</span>{' '}
      <span className="text-xs text-slate-400">{o.chain.symbol}</span> <span className="mx-1 text-slate-600">·</span>{' '}
      <Icon src={o.iconUrl} alt={o.symbol} className="h-4 w-4" /> <span className="text-sm text-slate-300">{o.symbol}</span>
    </span>
  );
}

/**
 * 'Select Chain': a non-searchable dropdown whose options show chain and token icons. Keyboard
 * like a native select (the listbox pattern): ArrowDown/ArrowUp/Home/End move, Enter or Space
 * chooses, Escape closes and gives focus back to the button.
 */
export function ChainSelect({
  options,
  value,
  onChange,
  disabled,
  error,
}: {
  options: TCurrencyOption[];
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  error?: string | undefined;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLLIElement | null)[]>([]);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', close);
    const start = Math.max(
      0,
      options.findIndex((o) => o.name === value),
    );
    items.current[start]?.focus();
    return () => document.removeEventListener('mousedown', close);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- focus the chosen option when the list opens
  }, [open]);
  const selected = options.find((o) => o.name === value);
  const choose = (name: string) => {
    onChange(name);
    setOpen(false);
    trigger.current?.focus();
  };
  const onListKey = (e: React.KeyboardEvent, index: number) => {
    const last = options.length - 1;
    const move = (i: number) => {
      e.preventDefault();
      items.current[i]?.focus();
    };
    if (e.key === 'ArrowDown') move(Math.min(last, index + 1));
    else if (e.key === 'ArrowUp') move(Math.max(0, index - 1));
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(last);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      choose(options[index]!.name);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      setOpen(false);
      if (e.key === 'Escape') trigger.current?.focus();
    }
  };
  return (
    <div ref={box} className="relative">
      <span id="chain-label" className="label">
        Select Chain
      </span>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby="chain-label chain-value"
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className={clsx('input flex items-center justify-between text-left', error && 'border-red-500/60')}
      >
        <span id="chain-value">{selected ? <OptionView o={selected} /> : <span className="text-slate-400">Select a chain and token</span>}</span>
        <ChevronDown className="h-4 w-4 text-slate-400" aria-hidden />
      </button>
      {open ? (
        <ul
          role="listbox"
          aria-labelledby="chain-label"
          className="absolute z-20 mt-1 w-full overflow-hidden rounded-xl border border-white/10 bg-surface-800 shadow-xl"
        >
          {options.map((o, i) => (
            <li
              key={o.name}
              ref={(el) => {
                items.current[i] = el;
              }}
              role="option"
              aria-selected={o.name === value}
              tabIndex={-1}
              onClick={() => choose(o.name)}
              onKeyDown={(e) => onListKey(e, i)}
              className={clsx('flex w-full cursor-pointer px-3 py-2.5 outline-none hover:bg-white/5 focus:bg-white/10', o.name === value && 'bg-brand-500/10')}
            >
              <OptionView o={o} />
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
