import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { parseAbiItem, type Hex } from 'viem';
import { loadSignerConfig } from '../apps/signer/src/config';
import { readMnemonic } from '../apps/signer/src/mnemonic';
import { buildSigner } from '../apps/signer/src/run';
import { serverApi, type ServerApi } from '../apps/signer/src/server-api';
import { loadConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { deriveAddress, parseAccountXpub } from '../apps/server/src/modules/custody/derive';
import { readBalances } from '../apps/server/src/modules/custody/balances';
import { approveWithdrawal } from '../apps/server/src/modules/payouts/service';
import { confirmPayouts } from '../apps/server/src/modules/payouts/confirm';
import { createWithdrawal } from '../apps/server/src/modules/withdrawals/service';
import { TOKEN_ABI, startAnvil } from '../apps/server/src/test/chain/anvil';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../apps/server/src/test/chain/test-keys';
import { createUser, fundIncome } from '../apps/server/src/test/factories';
import { benchContext, benchPort, line, listen, ON_PGLITE, verifyLine } from './lib';

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 200);
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 1_000);
/** BSC's depth (the server's default); the signer waits for it too before it builds on a top-up. */
const CONF = 15;
/** Interval mining while the payouts are sent, so several nonces wait in the node's pool at once (BSC makes a block every 0.75 s). */
const BLOCK_S = 1;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Time spent waiting for the server's internal routes (the server runs in this process: its handling is counted here). */
interface Waits {
  ms: number;
  calls: number;
}

function timedApi(real: ServerApi, w: Waits): ServerApi {
  const time =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const t = performance.now();
      w.calls++;
      try {
        return await fn(...a);
      } finally {
        w.ms += performance.now() - t;
      }
    };
  return {
    payouts: time(real.payouts),
    report: time(real.report),
    heartbeat: time(real.heartbeat),
    sweeps: time(real.sweeps),
    sweepReport: time(real.sweepReport),
  };
}

/** The process's resident memory sampled every 50 ms: the high-water mark of one phase (maxRSS only ever grows). */
function rssPeak(): { start: number; stop(): number } {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  return {
    start,
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * The signer's throughput (issue 48), on a local anvil with the server in this process:
 * (a) BENCH_PAYOUTS (200) approved withdrawals paid from one hot address while anvil mines a block a
 *     second, so many nonces are in the node's pool at once: payouts/s until all are sent (one
 *     signer pass) and until the server completed all on chain evidence (CONF deep);
 * (b) BENCH_SWEEPS (1,000) deposit addresses holding the token, all but anvil's ten dev accounts
 *     without gas: the sweeper's passes until the server recorded every sweep (a gas top-up from
 *     the hot wallet, the token transfer, the report), anvil mining on each transaction and the
 *     bench mining CONF blocks between passes.
 * For each: the signer's own time (signing, its PGlite store, its code) beside its time waiting for
 * the node (its transport timed, overlapping calls once) and for the server's internal routes, and
 * the peak resident memory (of this whole process: the signer, the server and, with BENCH_DB=pglite,
 * the server's database too; the signer's store is PGlite as by default).
 */
export async function payoutsBench(): Promise<void> {
  console.log(
    `Signer (server on ${ON_PGLITE ? 'PGlite' : 'PostgreSQL'}, signer store PGlite): ${PAYOUTS} payouts with ${BLOCK_S} s blocks, ${SWEEPS} sweeps, depth ${CONF}`,
  );
  const anvil = await startAnvil({ port: benchPort('BENCH_ANVIL_PORT') });
  const token = await anvil.deployToken(18);
  const signerToken = randomBytes(32).toString('hex');
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
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(CONF),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
      RATE_LIMIT_MONEY_PER_MIN: '1000000',
    }),
  };
  const { app, url } = await listen(ctx);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-signer-'));
  const mnemonicFile = path.join(dir, 'mnemonic');
  writeFileSync(mnemonicFile, `${TEST_MNEMONIC}\n`, { mode: 0o600 });
  const config = loadSignerConfig({
    SIGNER_MNEMONIC_FILE: mnemonicFile,
    SIGNER_SERVER_URL: url,
    SIGNER_TOKEN: signerToken,
    SIGNER_DATA_DIR: path.join(dir, 'db'),
    CHAIN_BSC_RPC_URL: anvil.url,
    CHAIN_BSC_USDT: token,
    CHAIN_BSC_CONFIRMATIONS: String(CONF),
    SIGNER_MAX_PAYOUT_USD: '1000',
    SIGNER_DAILY_LIMIT_USD: '1000000000',
  });
  const waits: Waits = { ms: 0, calls: 0 };
  const built = await buildSigner(config, readMnemonic(config.mnemonicFile), quiet, { api: timedApi(serverApi(config.serverUrl, config.token), waits) });
  const rpc = built.networks.get('bsc')!.rpc;
  const hot = built.hot.address;
  try {
    await anvil.rpc('anvil_setBalance', [hot, `0x${(10n ** 22n).toString(16)}`]);
    await anvil.mint(token, hot, 10n ** 18n * 10_000_000n);
    const adminId = (await createUser(ctx.db, ctx.secret, { isAdmin: true })).id;

    // (a) Payouts.
    const seededAt = performance.now();
    const amounts: bigint[] = [];
    for (let i = 0; i < PAYOUTS; i++) {
      const u = await createUser(ctx.db, ctx.secret);
      const usd = 20 + (i % 50);
      await fundIncome(ctx.db, u.id, usd);
      const { id } = await createWithdrawal(ctx.db, u.id, {
        amount_usd: usd,
        network: 'BSC',
        wallet_address: `0x${randomBytes(20).toString('hex')}`,
        token: 'USDT',
      });
      await approveWithdrawal(ctx, id, { adminId });
      amounts.push(BigInt(usd * 95) * 10n ** 16n);
    }
    line('  seeded approved withdrawals', `${PAYOUTS} in ${s(performance.now() - seededAt)}`);
    await anvil.rpc('evm_setAutomine', [false]);
    await anvil.rpc('evm_setIntervalMining', [BLOCK_S]);
    const first = await anvil.head();
    let inFlight = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [pending, latest] = await Promise.all([
          anvil.publicClient.getTransactionCount({ address: hot, blockTag: 'pending' }),
          anvil.publicClient.getTransactionCount({ address: hot, blockTag: 'latest' }),
        ]);
        inFlight = Math.max(inFlight, pending - latest);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const mem = rssPeak();
    const cpu0 = process.cpuUsage();
    const rpc0 = { ...rpc };
    const waits0 = { ...waits };
    const t0 = performance.now();
    const pass = await built.signer.tick();
    const sentMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const rpcMs = rpc.ms - rpc0.ms;
    const serverMs = waits.ms - waits0.ms;
    const sent = await countStatus(ctx, 'sent');
    line(
      '  (a) one signer pass: signed, claimed, broadcast',
      `${pass.signed} in ${s(sentMs)} = ${(pass.signed / (sentMs / 1000)).toFixed(1)} payouts/s (${sent} sent)`,
    );
    line('      most nonces in the node’s pool at once (sampled)', `${inFlight}`);
    let completed = 0;
    while (completed < PAYOUTS) {
      await confirmPayouts(ctx);
      completed = await countStatus(ctx, 'completed');
      if (completed < PAYOUTS) await new Promise((r) => setTimeout(r, 250));
    }
    const completedMs = performance.now() - t0;
    sampling = false;
    await sampler;
    const peak = mem.stop();
    line('      until the server completed all (depth reached)', `${s(completedMs)} = ${(PAYOUTS / (completedMs / 1000)).toFixed(1)} payouts/s`);
    line(
      '      signer own time vs node vs server routes',
      `${s(sentMs - rpcMs - serverMs)} vs ${s(rpcMs)} (${rpc.calls - rpc0.calls} calls) vs ${s(serverMs)}`,
    );
    line('      process CPU during the pass (user+system)', `${s((cpu.user + cpu.system) / 1000)}`);
    line('      peak RSS (phase high-water; at its start)', `${mb(peak)} (${mb(mem.start)})`);
    const paid = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: hot }, fromBlock: first });
    const want = amounts.reduce((a, x) => a + x, 0n);
    const got = paid.reduce((a, l) => a + l.args.value!, 0n);
    line('      paid on chain = approved (count, sum)', paid.length === PAYOUTS && got === want ? 'yes' : `NO: ${paid.length} transfers, ${got} vs ${want}`);
    await anvil.rpc('evm_setIntervalMining', [0]);
    await anvil.rpc('evm_setAutomine', [true]);

    // (b) Sweeps.
    const account = parseAccountXpub(TEST_EVM_XPUB, 'evm');
    const addresses = Array.from({ length: SWEEPS }, (_, i) => deriveAddress('evm', account, i).hex);
    await sql`insert into users (name, email, username, status, email_verified_at)
      select 'Sweep ' || i, 'sweep' || i || '@example.test', 'S' || lpad(i::text, 8, '0'), 'active', now() from generate_series(0, ${SWEEPS - 1}) i`.execute(
      ctx.db,
    );
    const ids = (await sql<{ id: bigint }>`select id from users where email like 'sweep%@example.test' order by id`.execute(ctx.db)).rows.map((r) => r.id);
    for (let i = 0; i < SWEEPS; i += 500) {
      const slice = ids.slice(i, i + 500);
      await ctx.db
        .insertInto('custody_accounts')
        .values(slice.map((user_id, j) => ({ user_id, idx: i + j })))
        .execute();
      await ctx.db
        .insertInto('custody_addresses')
        .values(slice.map((user_id, j) => ({ family: 'evm' as const, address: addresses[i + j]!, user_id, idx: i + j, xpub: TEST_EVM_XPUB })))
        .execute();
    }
    /**
     * The server's balances job, which lists the candidates. It reads at the watcher's credited line;
     * the bench moves that line itself (the watcher's own speed is the custody bench's).
     */
    const balancesJob = async () => {
      const final = (await anvil.head()) - BigInt(CONF) + 1n;
      await ctx.db
        .insertInto('chain_cursors')
        .values({ network: 'bsc', scanned_to: final, final_height: final, head: final })
        .onConflict((oc) => oc.column('network').doUpdateSet({ scanned_to: final, final_height: final }))
        .execute();
      await readBalances(ctx, 'bsc');
    };
    const fundAt = performance.now();
    const each = 25n * 10n ** 18n;
    const funder = anvil.wallet.account.address;
    await anvil.mint(token, funder, each * BigInt(SWEEPS));
    for (let i = 0; i < SWEEPS; i += 100) {
      const to = addresses.slice(i, i + 100) as Hex[];
      await anvil.wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName: 'batchTransfer', args: [to, to.map(() => each)], gas: 6_000_000n });
    }
    await anvil.mine(CONF);
    await balancesJob();
    line('  deposit addresses funded (batchTransfer of 100)', `${SWEEPS} in ${s(performance.now() - fundAt)}`);
    const memB = rssPeak();
    const rpcB = { ...rpc };
    const waitsB = { ...waits };
    const cpuB = process.cpuUsage();
    let sweepMs = 0;
    let passes = 0;
    let toppedUp = 0;
    let recorded = 0;
    const sweepAt = performance.now();
    while (recorded < SWEEPS && passes < 50) {
      const t = performance.now();
      const r = await built.sweeper.tick();
      sweepMs += performance.now() - t;
      passes++;
      toppedUp += r.toppedUp;
      // The chain and the server's balances job between passes, outside the sweeper's time.
      await anvil.mine(CONF);
      await balancesJob();
      recorded = Number((await sql<{ n: string }>`select count(*)::text as n from custody_sweeps`.execute(ctx.db)).rows[0]!.n);
    }
    const cpuSweep = process.cpuUsage(cpuB);
    const peakB = memB.stop();
    const rpcSweep = rpc.ms - rpcB.ms;
    const serverSweep = waits.ms - waitsB.ms;
    line(
      '  (b) sweeps recorded by the server',
      `${recorded} of ${SWEEPS} (${toppedUp} gas top-ups) in ${passes} passes, ${s(sweepMs)} of sweeper time = ${(recorded / (sweepMs / 1000)).toFixed(1)} sweeps/s`,
    );
    line('      wall time with mining and balances between passes', s(performance.now() - sweepAt));
    line(
      '      sweeper own time vs node vs server routes',
      `${s(sweepMs - rpcSweep - serverSweep)} vs ${s(rpcSweep)} (${rpc.calls - rpcB.calls} calls) vs ${s(serverSweep)}`,
    );
    line('      process CPU during the sweeps (user+system)', `${s((cpuSweep.user + cpuSweep.system) / 1000)}`);
    line('      peak RSS (phase high-water; at its start)', `${mb(peakB)} (${mb(memB.start)})`);
    const left = await Promise.all(
      addresses
        .slice(0, 20)
        .map((a) => anvil.publicClient.readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [a as Hex] }) as Promise<bigint>),
    );
    line('      first 20 deposit addresses emptied', left.every((x) => x === 0n) ? 'yes' : 'NO');
    line('  process max RSS (whole run: server, signer, databases)', mb(process.resourceUsage().maxRSS * 1024));
    line('  ledger:verify', await verifyLine(ctx.db));
  } finally {
    await built.store.close();
    await app.close();
    await b.drop();
    await anvil.close();
  }
}

async function countStatus(ctx: AppContext, status: 'sent' | 'completed'): Promise<number> {
  const r = await ctx.db
    .selectFrom('withdrawals')
    .select((e) => e.fn.countAll<string>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
