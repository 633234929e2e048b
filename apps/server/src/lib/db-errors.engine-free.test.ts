import { describe, expect, it } from 'vitest';
import { classifyDbError, isDbUnavailable } from './db-errors';

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

  it('knows a full disk, a dropped database and a revoked role (issue 30, items 2 and 4)', () => {
    const byReason: Record<string, unknown[]> = {
      disk: [
        withCode('53100', 'could not extend file "base/5/16385": No space left on device'),
        withCode('ENOSPC', 'ENOSPC: no space left on device, write'),
        withCode('EDQUOT'),
        withCode('58030', 'could not write to file'),
      ],
      resources: [withCode('53200', 'out of memory'), withCode('53400', 'configuration limit exceeded')],
      // The schema is missing or behind (issue 47): a database dropped and created again empty.
      schema: [
        withCode('42P01', 'relation "users" does not exist'),
        withCode('42883', 'function app_session(text) does not exist'),
        withCode('42703', 'column "removed_at" does not exist'),
      ],
      connection: [withCode('53300', 'sorry, too many clients already')],
      database: [withCode('3D000', 'database "fault_x" does not exist'), withCode('57P04')],
      auth: [
        withCode('28000', 'role "app" is not permitted to log in'),
        withCode('28P01', 'password authentication failed for user "app"'),
        withCode('42501', 'permission denied for database fault_x'),
      ],
    };
    for (const [reason, errors] of Object.entries(byReason)) {
      for (const e of errors) {
        expect(isDbUnavailable(e), String(e)).toBe(true);
        expect(classifyDbError(e)).toMatchObject({ reason, retryAfterSeconds: expect.any(Number) });
      }
    }
    expect(classifyDbError(withCode('ECONNREFUSED'))).toEqual({ reason: 'connection', code: 'ECONNREFUSED', retryAfterSeconds: 5 });
  });

  it('leaves query errors and bugs alone (they stay 4xx/500)', () => {
    for (const e of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('40P01', 'deadlock detected'),
      withCode('55000', 'cannot do that now'),
      withCode('22003', 'numeric field overflow'),
      withCode('ENOENT'),
      new TypeError('x is undefined'),
      undefined,
      'text',
    ]) {
      expect(isDbUnavailable(e), String(e)).toBe(false);
    }
  });
});
