import { ZAdminExportQuery, ZUserExportQuery } from '../schemas/common';
import { defineContract } from './define';

/**
 * CSV exports (issue 32, item 18): the whole filtered list, streamed by the server, not the page
 * on screen. ISO 8601 dates (UTC), plain numbers, the currency in the column header; text cells
 * escaped against formulas (@app/core/csv). The browser downloads them with the bearer token.
 */
export const csvExports = {
  user: defineContract({
    method: 'GET',
    path: '/user/export',
    auth: 'user',
    tag: 'exports',
    summary: 'One of my histories as CSV (deposits, withdrawals, transfers, income, stakes, team), whole, with its date range',
    query: ZUserExportQuery,
    data: null,
    produces: 'text/csv',
  }),
  admin: defineContract({
    method: 'GET',
    path: '/admin/export',
    auth: 'admin',
    tag: 'admin',
    summary: "An admin list as CSV (users, withdrawals, payments, tickets, audit), whole, with the list's filters",
    query: ZAdminExportQuery,
    data: null,
    produces: 'text/csv',
  }),
};
