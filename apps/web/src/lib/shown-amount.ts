/** A readable, non-zero number, or null: 0, '', null, undefined and non-numbers count as absent. */
function present(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n !== 0 ? n : null;
}

/**
 * The amount a history record or a dashboard activity shows (spec section 3): amount_received,
 * else amount_usd, else amount, as an absolute value. A value of 0 or an empty one is absent, so
 * a payment cancelled with nothing received shows what was asked, the same on the dashboard's
 * Recent Activities and on /transaction.
 */
export function shownAmount(values: { amount_received?: unknown; amount_usd?: unknown; amount?: unknown }): number {
  const v = present(values.amount_received) ?? present(values.amount_usd) ?? present(values.amount) ?? 0;
  return Math.abs(v);
}
