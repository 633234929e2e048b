import { Readable } from 'node:stream';
import { csvLine, type CsvValue } from '@app/core/csv-export';
import type { FastifyReply } from 'fastify';

/** Rows fetched this many at a time: memory stays flat however long the history is. */
export const EXPORT_BATCH = 500;

/**
 * Every row of a paginated list, page after page of EXPORT_BATCH, through the list's own
 * function: an export is the list's filters and order, not a second copy of its query.
 */
export async function* allRows<T>(fetchPage: (page: number, perPage: number) => Promise<{ rows: T[] }>): AsyncGenerator<T> {
  for (let page = 1; ; page++) {
    const { rows } = await fetchPage(page, EXPORT_BATCH);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
  }
}

/**
 * Streams a CSV file (issue 32, item 18): the header line, then one line per row as the rows are
 * read. `name` becomes `<name>-<yyyy-mm-dd>.csv`. Not cached: it is the user's money.
 */
export function sendCsv<T>(reply: FastifyReply, name: string, header: string[], rows: AsyncIterable<T>, toCells: (row: T) => CsvValue[]): FastifyReply {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(header);
    for await (const row of rows) yield csvLine(toCells(row));
  }
  const file = `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
