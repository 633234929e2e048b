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
    const cases: [unknown, string][] = [
      [withCode('53100', 'could not extend file "base/5/16385": No space left on device'), 'disk'],
      [withCode('ENOSPC', 'ENOSPC: no space left on device, write'), 'disk'],
      [withCode('EDQUOT'), 'disk'],
      [withCode('58030', 'could not write to file'), 'disk'],
      [withCode('53200', 'out of memory'), 'resources'],
      [withCode('53400', 'configuration limit exceeded'), 'resources'],
      [withCode('53300', 'sorry, too many clients already'), 'connection'],
      [withCode('3D000', 'database "fault_x" does not exist'), 'database'],
      [withCode('57P04'), 'database'],
      [withCode('28000', 'role "app" is not permitted to log in'), 'auth'],
      [withCode('28P01', 'password authentication failed for user "app"'), 'auth'],
      [withCode('42501', 'permission denied for database fault_x'), 'auth'],
    ];
    for (const [e, reason] of cases) {
      expect(isDbUnavailable(e), String(e)).toBe(true);
      expect(classifyDbError(e)).toMatchObject({ reason, retryAfterSeconds: expect.any(Number) });
    }
    expect(classifyDbError(withCode('ECONNREFUSED'))).toEqual({ reason: 'connection', code: 'ECONNREFUSED', retryAfterSeconds: 5 });
  });

  it('leaves query errors and bugs alone (they stay 4xx/500)', () => {
    for (const e of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "x" does not exist'),
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
