import { DEPOSIT_MIN_USD, usd } from '@app/core';

/** The spec's minimum deposit: a transfer under it is recorded, shown as not credited, and left to an admin. */
export const MIN_DEPOSIT_MICRO = usd(DEPOSIT_MIN_USD);

/**
 * Past this a transfer is held for an admin instead of credited by itself: 10^9 USDT, far above
 * any real deposit, far below what the ledger's 64-bit balances hold, so no forged or minted
 * amount can overflow a balance or a total (docs/custody.md).
 */
export const MAX_AUTO_CREDIT_MICRO = 10n ** 15n;

/** micro-USDT of a raw token amount: ⌊raw ÷ 10^(decimals − 6)⌋ (custody.md); what is left under a micro-unit is not credited. */
export function microOf(raw: bigint, decimals: number): bigint {
  return decimals >= 6 ? raw / 10n ** BigInt(decimals - 6) : raw * 10n ** BigInt(6 - decimals);
}

/** The raw amount of `micro` micro-USDT (tests, the demo's sender). */
export function rawOf(micro: bigint, decimals: number): bigint {
  return decimals >= 6 ? micro * 10n ** BigInt(decimals - 6) : micro / 10n ** BigInt(6 - decimals);
}

/** A decimal amount of tokens in raw units, exactly ("25.5" at 18 decimals); null when it is not one. */
export function usdtRawOf(amount: string, decimals: number): bigint | null {
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(amount.trim());
  if (!m || (m[2] ?? '').length > decimals) return null;
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt((m[2] ?? '').padEnd(decimals, '0') || '0');
}

/** A raw token amount as exact decimal text ("0.000000000001" at 18 decimals): what an admin reads of dust or a held transfer. */
export function rawToDecimal(raw: string | bigint, decimals: number): string {
  const v = BigInt(raw);
  const unit = 10n ** BigInt(decimals);
  const frac = (v % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${v / unit}.${frac}` : String(v / unit);
}
