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

/**
 * A date range over a history (issue 32, item 19): start_date and end_date, yyyy-mm-dd, UTC days,
 * both included, either may be empty. The same two fields on every history and its CSV export.
 */
export const ZDateRangeFields = {
  start_date: z.union([z.literal(''), z.iso.date('start_date must be yyyy-mm-dd')]).optional(),
  end_date: z.union([z.literal(''), z.iso.date('end_date must be yyyy-mm-dd')]).optional(),
};
export type TDateRange = { start_date?: string | undefined; end_date?: string | undefined };

const ZIncomeType = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : Number(v)),
  z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'income_type must be 1, 2 or 3' }),
);

export const ZIncomeHistoryQuery = ZPageQuery.extend({
  income_type: ZIncomeType,
  ...ZDateRangeFields,
});

/** What a user can export as CSV (GET /api/user/export): every history, whole, with its filters. */
export const USER_EXPORT_LISTS = ['deposits', 'withdrawals', 'transfers', 'income', 'stakes', 'team'] as const;
export const ZUserExportQuery = z.object({
  list: z.enum(USER_EXPORT_LISTS, { error: `list must be one of ${USER_EXPORT_LISTS.join(', ')}` }),
  /** the income tab (list=income) */
  income_type: ZIncomeType.optional(),
  ...ZDateRangeFields,
});

/** What an admin can export as CSV (GET /api/admin/export), with the list's own filters. */
export const ADMIN_EXPORT_LISTS = ['users', 'withdrawals', 'payments', 'tickets', 'audit'] as const;
export const ZAdminExportQuery = z.object({
  list: z.enum(ADMIN_EXPORT_LISTS, { error: `list must be one of ${ADMIN_EXPORT_LISTS.join(', ')}` }),
  status: z.string().max(32).optional(),
  q: z.string().max(200).optional(),
  review: z.string().max(8).optional(),
});

export const ZHistoryQuery = ZPageQuery.extend({
  type: z.enum(HISTORY_TYPES, { error: 'type must be transaction, withdrawal or transfer' }),
  ...ZDateRangeFields,
});

export const ZTransferHistoryQuery = ZPageQuery.extend({
  type: z.enum(['deposit', 'withdraw', ''], { error: 'type must be deposit or withdraw' }).optional(),
  ...ZDateRangeFields,
});

export const ZStakeHistoryQuery = ZPageQuery.extend(ZDateRangeFields);

export interface TPagination {
  total: number;
  page: number;
  perPage: number;
}
