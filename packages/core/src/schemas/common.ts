import { z } from 'zod';
import { HISTORY_TYPES, MAX_PAGE_SIZE, PAGE_SIZE } from '../constants';

const intParam = (def: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.number({ error: 'Must be a whole number' }).int('Must be a whole number').min(1, 'Must be at least 1').max(max, `Must be at most ${max}`).default(def),
  );

/** page / per_page query (default 10, max 100). */
export const ZPageQuery = z.object({
  page: intParam(1, 1_000_000),
  per_page: intParam(PAGE_SIZE, MAX_PAGE_SIZE),
});
export type TPageQuery = z.infer<typeof ZPageQuery>;

export const ZIncomeHistoryQuery = ZPageQuery.extend({
  income_type: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'income_type must be 1, 2 or 3' }),
  ),
});

export const ZHistoryQuery = ZPageQuery.extend({
  type: z.enum(HISTORY_TYPES, { error: 'type must be transaction, withdrawal or transfer' }),
});

export const ZTransferHistoryQuery = ZPageQuery.extend({
  type: z.enum(['deposit', 'withdraw', ''], { error: 'type must be deposit or withdraw' }).optional(),
  start_date: z.union([z.literal(''), z.iso.date('start_date must be yyyy-mm-dd')]).optional(),
  end_date: z.union([z.literal(''), z.iso.date('end_date must be yyyy-mm-dd')]).optional(),
});

export interface TPagination {
  total: number;
  page: number;
  perPage: number;
}
