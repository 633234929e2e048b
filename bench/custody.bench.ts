import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Hex } from 'viem';
import { loadConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { deriveAddress, parseAccountXpub } from '../apps/server/src/modules/custody/derive';
import { evmClient } from '../apps/server/src/modules/custody/rpc/client';
import { configureCustody } from '../apps/server/src/modules/custody/runtime';
import { readBalances } from '../apps/server/src/modules/custody/balances';
import { custodyView } from '../apps/server/src/modules/custody/admin-view';
import { TEST_EVM_XPUB } from '../apps/server/src/test/chain/test-keys';
import { deployMulticall3 } from '../apps/server/src/test/chain/multicall3';
import { watchOnce } from '../apps/server/src/modules/custody/watcher';
import { TOKEN_ABI, startAnvil } from '../apps/server/src/test/chain/anvil';
import { benchContext, benchPort, line, ON_PGLITE, verifyLine } from './lib';

const ADDRESSES = Number(process.env.BENCH_CUSTODY_ADDRESSES ?? 10_000);
const TRANSFERS = Number(process.env.BENCH_CUSTODY_TRANSFERS ?? 10_000);
const BLOCKS = Number(process.env.BENCH_CUSTODY_BLOCKS ?? 1_000);
const CONF = 15;
/** A hosted node's round trip (50–300 ms a call from a server in another region); the third run goes through it. */
const LATENCY_MS = Number(process.env.BENCH_RPC_LATENCY_MS ?? 50);
/** BSC's block time: the scan rate must stay well above one block per 0.75 s. */
const BSC_BLOCKS_PER_S = 1 / 0.75;
/** Which runs (all, filtered, remote; default all three): comparing two commits' watchers needs only one, run several times. */
const MODES = (process.env.BENCH_CUSTODY_MODES ?? 'all,filtered,remote').split(',');
/** BENCH_CUSTODY_VIEW=0 leaves out each run's balances job and view (about a minute each at 10,000 addresses on a local anvil). */
const VIEW = process.env.BENCH_CUSTODY_VIEW !== '0';
/**
 * A batch of 500 balanceOf eth_calls takes anvil about 4 s on a quiet machine, over the default
 * CHAIN_RPC_TIMEOUT_MS (10 s) on a busy one: the bench measures the job, not the timeout.
 */
const RPC_TIMEOUT_MS = 120_000;

/**
 * The chain watcher at scale (issue 33): 10,000 assigned addresses and 10,000 transfers to them
 * over 1,000 blocks of a local anvil, then the watcher from the first block until every transfer
 * is credited. Figures: scan rate (blocks/s, against BSC's 1.33 blocks/s), transfers credited per
 * second after finality, the time spent waiting for the node beside the watcher's own, peak
 * memory. Both ways of reading logs: every Transfer of the token matched in the database (past a
 * few thousand addresses, the default) and address-filtered queries of 200 addresses each; then
 * the default again through a proxy that holds each call BENCH_RPC_LATENCY_MS (50): a local anvil
 * answers in 1–2 ms, which no hosted node does, so the node's share is only realistic there.
 */
export async function custodyBench(): Promise<void> {
  console.log(`Custody watcher (${ON_PGLITE ? 'PGlite' : 'PostgreSQL'}): ${ADDRESSES} addresses, ${TRANSFERS} transfers over ${BLOCKS} blocks, depth ${CONF}`);
  const anvil = await startAnvil({ port: benchPort('BENCH_ANVIL_PORT') });
  const token = await anvil.deployToken(18);
  const account = parseAccountXpub(TEST_EVM_XPUB, 'evm');
  const derivedAt = performance.now();
  const addresses = Array.from({ length: ADDRESSES }, (_, i) => deriveAddress('evm', account, i).hex);
  line('derive addresses from the xpub', `${((ADDRESSES / (performance.now() - derivedAt)) * 1000).toFixed(0)} addresses/s`);

  // The chain: TRANSFERS transfers in BLOCKS blocks (batchTransfer, one transaction a block).
  const funder = anvil.wallet.account.address;
  await anvil.mint(token, funder, BigInt(TRANSFERS) * 1000n * 10n ** 18n);
  const start = (await anvil.head()) + 1n;
  const per = Math.ceil(TRANSFERS / BLOCKS);
  let expected = 0n;
  let sent = 0;
  const chainAt = performance.now();
  for (let b = 0; b < BLOCKS && sent < TRANSFERS; b++) {
    const to: Hex[] = [];
    const value: bigint[] = [];
    for (let i = 0; i < per && sent < TRANSFERS; i++, sent++) {
      to.push(addresses[(sent * 7919) % ADDRESSES] as Hex);
      const micro = 1_000_000n + BigInt(sent % 1000) * 1_000n;
      value.push(micro * 10n ** 12n);
      expected += micro;
    }
    await anvil.wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName: 'batchTransfer', args: [to, value], gas: 3_000_000n });
  }
  await anvil.mine(CONF);
  line('chain built (anvil, automine)', `${((performance.now() - chainAt) / 1000).toFixed(1)} s`);

  const modes = [
    { key: 'all', name: 'all logs, matched in the database', allLogs: true, url: () => anvil.url },
    { key: 'filtered', name: 'address-filtered, 200 a query', allLogs: false, url: () => anvil.url },
    { key: 'remote', name: `all logs, the node ${LATENCY_MS} ms away`, allLogs: true, url: async () => (await delayedProxy(anvil.url, LATENCY_MS)).url },
  ].filter((m) => MODES.includes(m.key));
  for (const { key, name: mode, allLogs, url: urlOf } of modes) {
    const url = await urlOf();
    const b = await benchContext(10);
    const ctx: AppContext = {
      ...b.ctx,
      config: loadConfig({
        DATA_DIR: b.ctx.config.dataDir,
        LOG_LEVEL: 'silent',
        JOBS_ENABLED: 'false',
        SESSION_SECRET: b.ctx.secret,
        ...(ON_PGLITE ? {} : { DATABASE_URL: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' }),
        PAYMENTS_GATEWAY: 'chain',
        CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
        CHAIN_BSC_RPC_URL: url,
        CHAIN_BSC_USDT: token,
        CHAIN_BSC_CONFIRMATIONS: String(CONF),
      }),
    };
    try {
      // The users and their addresses, written in bulk (the bench is about the watcher).
      await sql`insert into users (name, email, username, status, email_verified_at)
        select 'Bench ' || i, 'bench' || i || '@example.test', 'B' || lpad(i::text, 8, '0'), 'active', now() from generate_series(0, ${ADDRESSES - 1}) i`.execute(
        ctx.db,
      );
      const ids = (await sql<{ id: bigint }>`select id from users order by id`.execute(ctx.db)).rows.map((r) => r.id);
      for (let i = 0; i < ADDRESSES; i += 1000) {
        const slice = ids.slice(i, i + 1000);
        await ctx.db
          .insertInto('custody_accounts')
          .values(slice.map((user_id, j) => ({ user_id, idx: i + j })))
          .execute();
        await ctx.db
          .insertInto('custody_addresses')
          .values(slice.map((user_id, j) => ({ family: 'evm' as const, address: addresses[i + j]!, user_id, idx: i + j, xpub: TEST_EVM_XPUB })))
          .execute();
      }
      const client = evmClient(url, { timeoutMs: RPC_TIMEOUT_MS });
      configureCustody(ctx, {
        clients: { bsc: client },
        tuning: { startAt: () => start, allLogsAbove: allLogs ? 2_000 : Number.MAX_SAFE_INTEGER },
      });
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const first = await watchOnce(ctx, 'bsc');
      const scanMs = performance.now() - t0;
      const rpcAfterScan = client.rpc.rpcMs;
      let credited = first.credited;
      const c0 = performance.now();
      for (let i = 0; i < 10_000 && credited < TRANSFERS; i++) credited += (await watchOnce(ctx, 'bsc')).credited;
      const creditMs = performance.now() - c0 + scanMs;
      const cpu = process.cpuUsage(cpu0);
      const total = (await sql<{ s: string }>`select coalesce(sum(amount), 0)::text as s from chain_observations where status = 'credited'`.execute(ctx.db))
        .rows[0]!.s;
      const blocks = Number(first.scannedTo - start + 1n);
      console.log(`  ${mode}:`);
      line(
        '    scan (first tick: read, store, first credits)',
        `${(scanMs / 1000).toFixed(2)} s, ${(blocks / (scanMs / 1000)).toFixed(0)} blocks/s (BSC makes ${BSC_BLOCKS_PER_S.toFixed(2)})`,
      );
      line('    of which waiting for the node', `${(rpcAfterScan / 1000).toFixed(2)} s (${client.rpc.calls} calls in all)`);
      line('    credited after finality', `${credited} in ${(creditMs / 1000).toFixed(2)} s = ${(credited / (creditMs / 1000)).toFixed(0)} transfers/s`);
      line(
        '    watcher own time vs node time (whole run)',
        `${((creditMs - client.rpc.rpcMs) / 1000).toFixed(2)} s vs ${(client.rpc.rpcMs / 1000).toFixed(2)} s`,
      );
      // On a shared machine the wall time swings with the other processes; this process's CPU time does not.
      line(
        '    CPU time of this process (user + system), whole run',
        `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s, ${((cpu.user + cpu.system) / credited).toFixed(0)} µs a transfer`,
      );
      line('    credited total = sent', `${BigInt(total) === expected ? 'yes' : `NO: ${total} vs ${expected}`}`);
      line('    peak memory (process max RSS)', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
      line('    ledger:verify', await verifyLine(ctx.db));
      if (!VIEW) continue;
      // The operator view at scale (issue 49): a job reads every address's balance in JSON-RPC
      // batches and stores them; the view reads only the stored rows.
      const balancesAt = performance.now();
      const run = await readBalances(ctx, 'bsc');
      line('    balances job (eth_call batches of 500, no Multicall3)', perThousand(run.addresses, performance.now() - balancesAt));
      if (key === 'remote') {
        // Multicall3 from the next block on, and the credited line (the job's read height) moved past it.
        await deployMulticall3(anvil);
        await anvil.mine(CONF + 1);
        for (let i = 0; i < 3; i++) await watchOnce(ctx, 'bsc');
        // A new client: the last one remembers that the node lacked Multicall3.
        configureCustody(ctx, { clients: { bsc: evmClient(url, { timeoutMs: RPC_TIMEOUT_MS }) } });
        const multicallAt = performance.now();
        const again = await readBalances(ctx, 'bsc');
        line('    balances job (Multicall3 aggregate3, 500 a call)', perThousand(again.addresses, performance.now() - multicallAt));
      }
      const viewAt = performance.now();
      const view = await custodyView(ctx);
      const rec = view.networks[0]!.reconciliation;
      line(
        '    admin custody view (stored rows only)',
        `${(performance.now() - viewAt).toFixed(0)} ms (${rec.holding} addresses holding, difference ${rec.difference}, flagged ${String(rec.flagged)})`,
      );
    } finally {
      await b.drop();
    }
  }
  await Promise.all(proxies.map((p) => new Promise((done) => p.close(done))));
  await anvil.close();
}

const perThousand = (addresses: number, ms: number) =>
  `${addresses} addresses in ${(ms / 1000).toFixed(2)} s, ${((ms / addresses) * 1000).toFixed(0)} ms per 1,000`;

const proxies: Server[] = [];

/** An HTTP proxy in front of the node that holds every request `ms` before passing it on: a node across the internet. */
async function delayedProxy(target: string, ms: number): Promise<{ url: string }> {
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(body) })
          .then(async (r) => {
            res.writeHead(r.status, { 'content-type': 'application/json' });
            res.end(Buffer.from(await r.arrayBuffer()));
          })
          .catch(() => {
            res.writeHead(502);
            res.end();
          });
      }, ms);
    });
  });
  proxies.push(server);
  await new Promise<void>((ready) => server.listen(benchPort('BENCH_PROXY_PORT'), '127.0.0.1', ready));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
