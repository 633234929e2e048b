import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { TEST_EVM_XPUB } from '../test/chain/test-keys';
import { deriveAddress, parseAccountXpub } from '../modules/custody/derive';
import { TOKEN_ABI, startAnvil, type Anvil } from '../test/chain/anvil';
import { DataDirBusyError } from '../lib/data-dir-lock';
import { testDbKind } from '../test/app';
import { freePort, newTarget, startServer, withDb, type ServerProc, type Target } from '../test/faults/procs';

const USERS = 12;
const DEPOSITS = 600;
const METRICS_TOKEN = 'metrics-token-for-custody-kill-0123';

/**
 * kill -9 of the server while its watcher credits chain deposits (observations stored, credits
 * under way), on the project's database (PGlite, and PostgreSQL with TEST_DATABASE_URL): after a
 * restart every transfer is credited, none twice, and the ledger verifies.
 */
describe(`custody: kill -9 between observation and credit (${testDbKind}, real processes)`, () => {
  let anvil: Anvil;
  let t: Target;
  const servers: ServerProc[] = [];
  afterEach(() => {
    for (const s of servers.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
  });
  afterAll(async () => {
    await anvil?.close();
    await t?.drop();
  });

  /** The killed holder's lock is taken over once the lock sees its pid gone or goes stale. */
  const withDbAfterKill = async <T>(target: Target, fn: Parameters<typeof withDb<T>>[1]): Promise<T> => {
    for (let i = 0; ; i++) {
      try {
        return await withDb(target, fn);
      } catch (err) {
        if (!(err instanceof DataDirBusyError) || i > 60) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const credited = async (url: string): Promise<number> => {
    const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).catch(() => null);
    if (!res || res.status !== 200) return -1;
    const m = /chain_deposits\{network="bsc",status="credited"\} (\d+)/.exec(await res.text());
    return m ? Number(m[1]) : 0;
  };

  it('loses no deposit and credits none twice after a kill -9 mid-credit', async () => {
    anvil = await startAnvil();
    const token = await anvil.deployToken(18);
    t = await newTarget(testDbKind);
    const account = parseAccountXpub(TEST_EVM_XPUB, 'evm');
    const { createUser } = await import('../test/factories');
    const users = await withDb(t, async (h) => {
      const out: { id: bigint; address: string }[] = [];
      for (let i = 0; i < USERS; i++) {
        const u = await createUser(h.db, t.secret);
        const a = deriveAddress('evm', account, i);
        await h.db.insertInto('custody_accounts').values({ user_id: u.id, idx: i }).execute();
        await h.db.insertInto('custody_addresses').values({ family: 'evm', address: a.hex, user_id: u.id, idx: i, xpub: TEST_EVM_XPUB }).execute();
        out.push({ id: u.id, address: a.hex });
      }
      // The watcher reads from block 0.
      await h.db.insertInto('chain_cursors').values({ network: 'bsc', scanned_to: -1n, final_height: -1n }).execute();
      return out;
    });

    // 600 transfers in 10 transactions of 60 (batchTransfer), amounts 1.000001 … in micro-units.
    const expected = new Map<bigint, bigint>(users.map((u) => [u.id, 0n]));
    const total = BigInt(DEPOSITS) * 100n * 10n ** 18n;
    const funder = anvil.wallet.account.address;
    await anvil.mint(token, funder, total);
    for (let b = 0; b < DEPOSITS / 60; b++) {
      const to: Hex[] = [];
      const value: bigint[] = [];
      for (let i = 0; i < 60; i++) {
        const k = b * 60 + i;
        const u = users[k % USERS]!;
        const micro = 1_000_000n + BigInt(k) * 1_001n;
        to.push(u.address as Hex);
        value.push(micro * 10n ** 12n);
        expected.set(u.id, expected.get(u.id)! + micro);
      }
      const hash = await anvil.wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName: 'batchTransfer', args: [to, value], gas: 5_000_000n });
      await anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    }
    await anvil.mine(4);

    const env = {
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: '3',
      // 12 credits a tick, a tick every 150 ms: 50 ticks, so the kill lands mid-credit even when a
      // loaded machine answers the test's polls slowly (at 200 a tick, all 600 were once credited
      // between two polls).
      CHAIN_POLL_MS: '150',
      CHAIN_CREDITS_PER_TICK: '12',
      JOBS_ENABLED: 'true',
      METRICS_TOKEN,
    };
    let kills = 0;
    for (; kills < 1; kills++) {
      const s = startServer(t, await freePort(), env);
      servers.push(s);
      await s.ready(60_000);
      const start = await credited(s.url);
      // Kill once some more have been credited and some are left: credits are under way at that moment.
      let n = start;
      // Once a tick's credits show, the next ticks are crediting.
      for (let i = 0; i < 3000 && (n <= start || n === -1); i++) n = await credited(s.url);
      s.proc.kill('SIGKILL');
      await s.exited;
      expect(n).toBeLessThan(DEPOSITS);
      const state = await withDbAfterKill(t, async (h) =>
        h.db
          .selectFrom('chain_observations')
          .select(['status', (eb) => eb.fn.countAll<bigint>().as('n')])
          .groupBy('status')
          .execute(),
      );
      // Observed and not yet credited at the kill: the window this test is about.
      expect(Number(state.find((r) => r.status === 'seen')?.n ?? 0)).toBeGreaterThan(0);
    }

    // The restart credits the rest at the default pace.
    const s = startServer(t, await freePort(), { ...env, CHAIN_CREDITS_PER_TICK: '200' });
    servers.push(s);
    await s.ready(60_000);
    for (let i = 0; i < 1200 && (await credited(s.url)) < DEPOSITS; i++) await new Promise((r) => setTimeout(r, 100));
    s.proc.kill('SIGTERM');
    await s.exited;

    await withDb(t, async (h) => {
      const { getBalances, verify } = await import('../modules/ledger/service');
      for (const u of users) expect((await getBalances(h.db, u.id)).deposit).toBe(expected.get(u.id));
      const keys = await h.db.selectFrom('ledger_entries').select('idempotency_key').where('kind', '=', 'deposit').execute();
      expect(keys).toHaveLength(DEPOSITS);
      expect(new Set(keys.map((k) => k.idempotency_key)).size).toBe(DEPOSITS);
      const obs = await h.db.selectFrom('chain_observations').select('status').execute();
      expect(obs).toHaveLength(DEPOSITS);
      expect(obs.every((o) => o.status === 'credited')).toBe(true);
      expect((await verify(h.db)).ok).toBe(true);
    });
  }, 300_000);
});
