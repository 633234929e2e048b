import type { TCurrencyOption } from '@app/core';
import clsx from 'clsx';
import { ChevronDown } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Icon } from './icon';

function OptionView({ o }: { o: TCurrencyOption }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Icon src={o.chain.iconUrl} alt={o.chain.name} />
      <span className="font-medium text-slate-100">{o.chain.shortName || o.chain.name}</span>
      <span className="text-xs text-slate-400">{o.chain.symbol}</span>
      <span className="mx-1 text-slate-600">·</span>
      <Icon src={o.iconUrl} alt={o.symbol} className="h-4 w-4" />
      <span className="text-sm text-slate-300">{o.symbol}</span>
    </span>
  );
}

/** 'Select Chain': a non-searchable dropdown whose options show chain and token icons. */
export function ChainSelect({ options, value, onChange, disabled, error }: { options: TCurrencyOption[]; value: string; onChange: (v: string) => void; disabled?: boolean; error?: string | undefined }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);
  const selected = options.find((o) => o.name === value);
  return (
    <div ref={box} className="relative">
      <span id="chain-label" className="label">
        Select Chain
      </span>
      <button
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby="chain-label chain-value"
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        className={clsx('input flex items-center justify-between text-left', error && 'border-red-500/60')}
      >
        <span id="chain-value">{selected ? <OptionView o={selected} /> : <span className="text-slate-400">Select a chain and token</span>}</span>
        <ChevronDown className="h-4 w-4 text-slate-400" aria-hidden />
      </button>
      {open ? (
        <ul role="listbox" aria-labelledby="chain-label" className="absolute z-20 mt-1 w-full overflow-hidden rounded-xl border border-white/10 bg-surface-800 shadow-xl">
          {options.map((o) => (
            <li key={o.name} role="option" aria-selected={o.name === value}>
              <button
                type="button"
                onClick={() => {
                  onChange(o.name);
                  setOpen(false);
                }}
                className={clsx('flex w-full px-3 py-2.5 hover:bg-white/5', o.name === value && 'bg-brand-500/10')}
              >
                <OptionView o={o} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}
