import { readFileSync, globSync } from 'node:fs';
import path from 'node:path';
import { admin } from '@app/core/contracts/admin';
import { history, transfers } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { contractQuery, keyOf, keyOfAll, underPath } from './query-keys';

describe('query keys come from the contracts', () => {
  it('a key is the call: endpoint, then input; another input is another key', () => {
    expect(keyOf(user.info)).toEqual(['GET', '/user/get-info']);
    const page1 = keyOf(history.list, { query: { type: 'withdrawal', page: 1 } });
    expect(page1).toEqual(['GET', '/user/get-history', { query: { type: 'withdrawal', page: 1 } }]);
    expect(page1).not.toEqual(keyOf(history.list, { query: { type: 'withdrawal', page: 2 } }));
  });

  it('refreshing an endpoint refreshes every input of it and nothing else; underPath takes a whole area', async () => {
    const qc = new QueryClient();
    const seed = (key: readonly unknown[]) => qc.setQueryData(key, { seeded: true });
    const historyPages = [1, 2].map((page) => contractQuery(history.list, { query: { type: 'transaction', page } }).queryKey);
    const transferPage = contractQuery(transfers.list, { query: { page: 1, per_page: 10, type: '', start_date: '', end_date: '' } }).queryKey;
    const adminStats = keyOf(admin.stats);
    const adminUser = keyOf(admin.user, { params: { id: '7' } });
    for (const k of [...historyPages, transferPage, adminStats, adminUser, keyOf(user.info)]) seed(k);
    const stale = () =>
      qc
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.isInvalidated)
        .map((q) => q.queryKey);

    await qc.invalidateQueries({ queryKey: keyOfAll(history.list) });
    expect(stale()).toEqual(historyPages);
    await qc.invalidateQueries({ predicate: underPath('/admin/') });
    expect(stale()).toEqual([...historyPages, adminStats, adminUser]);
  });

  it('no screen writes a key by hand', () => {
    const src = path.join(import.meta.dirname, '..');
    const offenders = globSync('**/*.{ts,tsx}', { cwd: src })
      .filter((f) => !f.endsWith('.test.ts') && !f.endsWith('.test.tsx') && f !== path.join('lib', 'query-keys.ts'))
      .filter((f) => /queryKey:\s*\[/.test(readFileSync(path.join(src, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
