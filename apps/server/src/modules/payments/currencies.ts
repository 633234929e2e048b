import type { TCurrencyOption } from '@app/core/contracts';
import type { AppContext } from '../../context';
import { paymentsRuntime } from './gateways/registry';
import { CURRENCY_OPTIONS } from './present';

const CACHE_MS = 10 * 60_000;
const cache = new WeakMap<AppContext, { at: number; options: TCurrencyOption[] }>();

/**
 * The deposit chains the active gateway accepts (cached 10 minutes). If the gateway cannot say,
 * or accepts none of ours, all three are offered: creating the payment is the real test.
 */
export async function listCurrencyOptions(ctx: AppContext): Promise<TCurrencyOption[]> {
  const hit = cache.get(ctx);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.options;
  let options = [...CURRENCY_OPTIONS];
  try {
    const accepted = new Set(await paymentsRuntime(ctx).active.listCurrencies());
    const filtered = options.filter((o) => accepted.has(o.name));
    if (filtered.length) options = filtered;
  } catch {
    // keep the full list
  }
  cache.set(ctx, { at: Date.now(), options });
  return options;
}
