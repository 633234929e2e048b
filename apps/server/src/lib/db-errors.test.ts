import { describe, expect, it } from 'vitest';
import { isDbUnavailable } from './db-errors';

describe('isDbUnavailable', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it('knows the database out of reach', () => {
    for (const e of [
      withCode('ECONNREFUSED'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      withCode('55000', 'database "x" is not currently accepting connections'),
      new Error('wrapped', { cause: withCode('ECONNRESET') }),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'all refused'),
    ]) {
      expect(isDbUnavailable(e), String(e)).toBe(true);
    }
  });

  it('leaves query errors and bugs alone (they stay 4xx/500)', () => {
    for (const e of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "x" does not exist'),
      withCode('40P01', 'deadlock detected'),
      withCode('55000', 'cannot do that now'),
      new TypeError('x is undefined'),
      undefined,
      'text',
    ]) {
      expect(isDbUnavailable(e), String(e)).toBe(false);
    }
  });
});
