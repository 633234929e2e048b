import { user } from '@app/core/contracts/user';
import { describe, expect, it } from 'vitest';
import { EARLY_READ_PATHS } from './early-requests';

describe('the reads the entry starts early (early-requests.ts)', () => {
  it('are the contracts’ own GET paths, so the early answer is the one the screen asks for', () => {
    const gets = Object.values(user)
      .filter((c) => c.method === 'GET')
      .map((c) => `/api${c.path}`);
    expect(EARLY_READ_PATHS).toEqual(['/api/user/get-info', '/api/user/wallet']);
    for (const path of EARLY_READ_PATHS) expect(gets).toContain(path);
  });
});
