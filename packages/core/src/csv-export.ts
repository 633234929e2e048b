import { csvCell } from './csv';
import { microToDecimal, toMicro } from './money';

/**
 * A cell of a server-side CSV export (issue 32, item 18): text goes through `csvCell` (quoted, and
 * a leading = + - @ tab or CR prefixed with ', so it never runs as a formula); an amount is a plain
 * number, written from micro-units by the one money conversion ("-10.5", not "'-$10.50"): it is
 * produced from a number we hold, never from a person's text, so a minus sign is a minus sign.
 */
export type CsvValue = string | null | undefined | { amount: number | bigint } | { count: number };

/** An amount cell: a JSON number of USDT (exact to 6 places) or micro-units. */
export const csvAmount = (value: number | bigint): CsvValue => ({ amount: value });
export const csvCount = (value: number): CsvValue => ({ count: value });

function cellText(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return csvCell(v);
  if ('count' in v) return String(Math.trunc(v.count));
  const micro = typeof v.amount === 'bigint' ? v.amount : toMicro(v.amount);
  return micro === null ? '' : microToDecimal(micro);
}

/** One CSV line (CRLF, RFC 4180). */
export function csvLine(cells: CsvValue[]): string {
  return cells.map(cellText).join(',') + '\r\n';
}
