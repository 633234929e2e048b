import { history } from '@app/core/contracts/money';
import { user } from '@app/core/contracts/user';
import { onlineManager, QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { attachCopy, keptSchema, MAX_AGE_MS, readCopy, writeCopy, type CopyStore } from './query-persistence';
import { keyOf, keyOfAll } from './query-keys';

const INFO = {
  name: 'Ann',
  username: 'ANN123456',
  status: 'active',
  eligible_level: 0,
  user_detail: { deposit_balance: 120, total_staked: 0, total_income: 0, roi_income: 0, direct_referral_income: 0, reward_income: 0, balance: 560 },
  activity: [],
};
const WALLET = {
  user_id: '7',
  balance: 560,
  deposit_balance: 120,
  total_staked: 0,
  total_income: 0,
  total_withdraw: 0,
  total_directs: 0,
  total_direct_business: 0,
  total_network: 0,
  team_business: { users: 0, amount: 0 },
};
const SETTINGS = { roi_income_percentage: 0.5, direct_referral_percentage: 5, stake_cap_percentage: 200, withdrawal_fee_percentage: 5 };

function memoryStore(token: string | null = 'tok-1'): CopyStore & { token: string | null; raw: string | null } {
  const s = {
    token,
    raw: null as string | null,
    getToken: () => s.token,
    getQueryCache: () => s.raw,
    setQueryCache: (json: string) => void (s.raw = json),
  };
  return s;
}
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
/** The client's cache events are delivered on a timer (notifyManager); the save waits 1 s. */
const settle = () => tick(1_100);

afterEach(() => onlineManager.setOnline(true));

describe('the device copy keeps every allowed query on its own (issue 47)', () => {
  it('allows the dashboard, the wallet and the rates; never histories, the profile or security', () => {
    expect(keptSchema(keyOf(user.info))).toBeDefined();
    expect(keptSchema(keyOf(user.wallet))).toBeDefined();
    expect(keptSchema(keyOf(user.settings))).toBeDefined();
    expect(keptSchema(keyOf(user.profile))).toBeUndefined();
    expect(keptSchema(keyOfAll(history.list))).toBeUndefined();
    expect(keptSchema(['GET', '/security'])).toBeUndefined();
  });

  it('a page read later does not drop another page’s copy, and nothing outside the list is written', async () => {
    const store = memoryStore();
    const client = new QueryClient();
    const copy = attachCopy(client, store);
    client.setQueryData(keyOf(user.info), INFO);
    client.setQueryData(keyOf(user.wallet), WALLET);
    client.setQueryData([...keyOfAll(history.list), { page: 1 }], { rows: ['secret'] });
    await settle();
    // The wallet query leaves the memory (the transfer page's gcTime 0): its copy stays.
    client.removeQueries({ queryKey: keyOf(user.wallet) });
    client.setQueryData(keyOf(user.settings), SETTINGS);
    await settle();
    copy.detach();
    const saved = readCopy(store.raw, Date.now());
    expect([...saved.values()].map((a) => a.key[1]).sort()).toEqual(['/user/get-info', '/user/settings', '/user/wallet']);
    expect(store.raw).not.toContain('secret');
    expect(store.raw).not.toContain('tok-1');
  });

  it('drops answers that break their contract, are 7 days old, or are in an older format', () => {
    const now = Date.now();
    const copy = new Map([
      ['a', { key: keyOf(user.info), data: INFO, at: now - 1000 }],
      ['b', { key: keyOf(user.wallet), data: { ...WALLET, balance: 'lots' }, at: now }],
      ['c', { key: keyOf(user.settings), data: SETTINGS, at: now - MAX_AGE_MS - 1 }],
      ['d', { key: keyOf(user.profile), data: { email: 'ann@example.com' }, at: now }],
    ]);
    const back = readCopy(writeCopy(copy, now), now);
    expect([...back.values()].map((a) => a.key[1])).toEqual(['/user/get-info']);
    expect(readCopy(JSON.stringify({ savedAt: now, state: { queries: [] } }), now).size).toBe(0);
    expect(readCopy('{broken', now).size).toBe(0);
  });

  it('writes nothing once signed out, and another session in the same tab never gets this one’s copy', async () => {
    const store = memoryStore();
    const client = new QueryClient();
    const copy = attachCopy(client, store);
    client.setQueryData(keyOf(user.wallet), WALLET);
    await tick(10);
    // Signed out (storage.clearSession removed the copy) before the grouped save ran.
    store.token = null;
    store.raw = null;
    client.setQueryData(keyOf(user.info), INFO);
    await settle();
    expect(store.raw).toBeNull();
    // Someone else signs in on this tab and goes offline: the first person's figures do not come back.
    store.token = 'tok-2';
    client.clear();
    onlineManager.setOnline(false);
    await tick(10);
    expect(client.getQueryData(keyOf(user.wallet))).toBeUndefined();
    expect(client.getQueryData(keyOf(user.info))).toBeUndefined();
    copy.detach();
  });

  it('offline, each screen gets its own last answer, marked as not fetched; back online the reads run by themselves', async () => {
    const store = memoryStore();
    const at = Date.now() - 3_600_000;
    store.raw = writeCopy(
      new Map([
        ['i', { key: keyOf(user.info), data: INFO, at }],
        ['w', { key: keyOf(user.wallet), data: WALLET, at }],
      ]),
      Date.now(),
    );
    onlineManager.setOnline(false);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.mount();
    const copy = attachCopy(client, store);
    let calls = 0;
    const fresh = { ...WALLET, balance: 600 };
    const observer = new QueryObserver(client, {
      queryKey: keyOf(user.wallet),
      queryFn: () => {
        calls++;
        return Promise.resolve(fresh);
      },
    });
    const results: { balance?: number; isFetched: boolean; fetchStatus: string }[] = [];
    const off = observer.subscribe((r) =>
      results.push({ balance: (r.data as typeof WALLET | undefined)?.balance, isFetched: r.isFetched, fetchStatus: r.fetchStatus }),
    );
    await tick(10);
    expect(calls).toBe(0);
    const now = observer.getCurrentResult();
    expect((now.data as typeof WALLET).balance).toBe(560);
    expect(now.dataUpdatedAt).toBe(at);
    expect(now.isFetched).toBe(false);
    expect(client.getQueryData(keyOf(user.info))).toEqual(INFO);

    onlineManager.setOnline(true);
    await tick(10);
    expect(calls).toBe(1);
    expect((observer.getCurrentResult().data as typeof WALLET).balance).toBe(600);
    expect(observer.getCurrentResult().isFetched).toBe(true);
    off();
    copy.detach();
    client.unmount();
  });

  it('a screen opened after going offline gets its copy too', async () => {
    const store = memoryStore();
    const client = new QueryClient();
    const copy = attachCopy(client, store);
    client.setQueryData(keyOf(user.settings), SETTINGS);
    await settle();
    client.removeQueries();
    onlineManager.setOnline(false);
    await tick(10);
    expect(client.getQueryData(keyOf(user.settings))).toEqual(SETTINGS);
    client.removeQueries();
    client.getQueryCache().build(client, { queryKey: keyOf(user.settings) });
    await tick(10);
    expect(client.getQueryData(keyOf(user.settings))).toEqual(SETTINGS);
    copy.detach();
  });

  it('online, a read that cannot reach the server shows the copy beside its error', async () => {
    const store = memoryStore();
    store.raw = writeCopy(new Map([['w', { key: keyOf(user.wallet), data: WALLET, at: Date.now() }]]), Date.now());
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const copy = attachCopy(client, store);
    await client.fetchQuery({ queryKey: keyOf(user.wallet), queryFn: () => Promise.reject(new ApiError('Network error', 0)) }).catch(() => undefined);
    await tick(10);
    const q = client.getQueryCache().find({ queryKey: keyOf(user.wallet) })!;
    expect(q.state.status).toBe('error');
    expect(q.state.data).toEqual(WALLET);
    copy.detach();
  });
});
