import { fork, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { parseAbiItem, type Hex } from 'viem';
import { loadConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { deriveAddress, parseAccountXpub } from '../apps/server/src/modules/custody/derive';
import { readBalances } from '../apps/server/src/modules/custody/balances';
import { approveWithdrawal } from '../apps/server/src/modules/payouts/service';
import { confirmPayouts } from '../apps/server/src/modules/payouts/confirm';
import { createWithdrawal } from '../apps/server/src/modules/withdrawals/service';
import { TOKEN_ABI, startAnvil, type Anvil } from '../apps/server/src/test/chain/anvil';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../apps/server/src/test/chain/test-keys';
import { createUser, fundIncome } from '../apps/server/src/test/factories';
import { benchContext, benchPort, line, listen, ON_PGLITE, verifyLine } from './lib';
import type { SignerAnswer, SignerOp, SignerStats } from './payouts-signer';

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 200);
const SWEEPS = Number(process.env.BENCH_SWEEPS ?? 1_000);
const LATENCY_MS = Number(process.env.BENCH_RPC_LATENCY_MS ?? 50);
const LATENT_PAYOUTS = Number(process.env.BENCH_LATENT_PAYOUTS ?? 50);
const LATENT_SWEEPS = LATENCY_MS > 0 ? Number(process.env.BENCH_LATENT_SWEEPS ?? 100) : 0;
/** BSC's depth (the server's default); the signer waits for it too before it builds on a top-up. */
const CONF = 15;
/** Interval mining while the payouts are sent, so several nonces wait in the node's pool at once (BSC makes a block every 0.75 s). */
const BLOCK_S = 1;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
interface Signer {
  hot: string;
  startRss: string;
  ask(op: SignerOp): Promise<SignerAnswer>;
  child: ChildProcess;
}

/** The signer started as its own process (payouts-signer.ts) with `env` only; each op answered in turn. */
async function startSignerProcess(env: Record<string, string>): Promise<Signer> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const child = fork(path.join(import.meta.dirname, 'payouts-signer.ts'), [], {
    execArgv: ['--import', tsx],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<SignerAnswer>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the signer process exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (a: SignerAnswer) => {
        child.off('exit', onExit);
        if (a.op === 'error') reject(new Error(`signer: ${a.message}`));
        else resolve(a);
      });
    });
  const ready = await next();
  if (ready.op !== 'ready') throw new Error(`the signer answered ${ready.op} first`);
  return {
    hot: ready.hot,
    startRss: `${mb(ready.rss)} resident, ${mb(ready.maxRss)} at most`,
    child,
    ask: (op) => {
      const answer = next();
      child.send({ op });
      return answer;
    },
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * The signer's throughput (issue 48), on a local anvil, the signer a process of its own
 * (payouts-signer.ts: its settings from its environment, its PGlite store, as `npm run signer`
 * runs) and the server in this process:
 * (a) BENCH_PAYOUTS (200) approved withdrawals paid from one hot address while anvil mines a block a
 *     second, so many nonces are in the node's pool at once: payouts/s until all are sent (one
 *     signer pass) and until the server completed all on chain evidence (CONF deep);
 * (b) BENCH_SWEEPS (1,000) deposit addresses holding the token (funded by batchTransfer), all but
 *     anvil's ten dev accounts without gas: the sweeper's passes until the server recorded every
 *     sweep (a gas top-up from the hot wallet, the token transfer, the report), anvil mining on each
 *     transaction and the bench mining CONF blocks and running the balances job between passes;
 * (c) the same, smaller (BENCH_LATENT_PAYOUTS 50, BENCH_LATENT_SWEEPS 100), by a second signer whose
 *     node is BENCH_RPC_LATENCY_MS (50) away behind a delaying proxy: anvil answers in 1–2 ms, a
 *     hosted node in 50–300, so only there is the node's share realistic. 0 leaves (c) out.
 * For each: the signer's own time (signing, its store, its code) beside its time waiting for the
 * node (its transport timed, overlapping calls once) and for the server's internal routes, the
 * signer process's CPU, and its peak resident memory.
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
  const signers: Signer[] = [];
  /** A signer process on a new store, its node at `nodeUrl`. */
  const newSigner = async (nodeUrl: string, name: string) => {
    const signer = await startSignerProcess({
      PATH: process.env.PATH ?? '',
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_SERVER_URL: url,
      SIGNER_TOKEN: signerToken,
      SIGNER_DATA_DIR: path.join(dir, name),
      CHAIN_BSC_RPC_URL: nodeUrl,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(CONF),
      SIGNER_MAX_PAYOUT_USD: '1000',
      SIGNER_DAILY_LIMIT_USD: '1000000000',
    });
    signers.push(signer);
    return signer;
  };
  try {
    const signer = await newSigner(anvil.url, 'db');
    line('  signer process started (new PGlite store)', signer.startRss);
    const hot = signer.hot as Hex;
    await anvil.rpc('anvil_setBalance', [hot, `0x${(10n ** 22n).toString(16)}`]);
    await anvil.mint(token, hot, 10n ** 18n * 10_000_000n);
    const adminId = (await createUser(ctx.db, ctx.secret, { isAdmin: true })).id;
    const env: PhaseEnv = { ctx, anvil, token, hot, adminId };
    const account = parseAccountXpub(TEST_EVM_XPUB, 'evm');
    const addresses = Array.from({ length: SWEEPS + LATENT_SWEEPS }, (_, i) => deriveAddress('evm', account, i).hex);
    await payPhase(env, signer, PAYOUTS, '(a)');
    await sweepPhase(env, signer, addresses.slice(0, SWEEPS), 0, '(b)');
    const last = await signer.ask('stats');
    if (last.op === 'stats') line('  signer process maxRSS, whole life (its first start included)', mb(last.stats.maxRss));
    if (LATENCY_MS > 0) {
      const proxy = await delayedProxy(anvil.url, LATENCY_MS);
      try {
        console.log(`  (c) a second signer, its node ${LATENCY_MS} ms away (a proxy in front of anvil):`);
        const far = await newSigner(proxy.url, 'db-far');
        await payPhase(env, far, LATENT_PAYOUTS, '(c)');
        await sweepPhase(env, far, addresses.slice(SWEEPS), SWEEPS, '(c)');
      } finally {
        await proxy.close();
      }
    }
    line('  bench process max RSS (the server and its database)', mb(process.resourceUsage().maxRSS * 1024));
    line('  ledger:verify', await verifyLine(ctx.db));
  } finally {
    for (const signer of signers)
      if (signer.child.exitCode === null) {
        const exited = new Promise((r) => signer.child.once('exit', r));
        signer.child.send({ op: 'stop' });
        await exited;
      }
    await app.close();
    await b.drop();
    await anvil.close();
  }
}

interface PhaseEnv {
  ctx: AppContext;
  anvil: Anvil;
  token: Hex;
  hot: Hex;
  adminId: bigint;
}

async function stats(signer: Signer): Promise<SignerStats> {
  const a = await signer.ask('stats');
  if (a.op !== 'stats') throw new Error(`the signer answered ${a.op}`);
  return a.stats;
}

async function pass(signer: Signer, op: 'pay' | 'sweep'): Promise<{ ms: number; result: Record<string, number> }> {
  const a = await signer.ask(op);
  if (a.op !== op) throw new Error(`the signer answered ${a.op}`);
  return a;
}

/** `n` approved withdrawals paid in one pass of `signer` while anvil mines a block every BLOCK_S, then completed by the server. */
async function payPhase({ ctx, anvil, token, hot, adminId }: PhaseEnv, signer: Signer, n: number, label: string): Promise<void> {
  const seededAt = performance.now();
  const ids: bigint[] = [];
  let want = 0n;
  for (let i = 0; i < n; i++) {
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
    ids.push(id);
    want += BigInt(usd * 95) * 10n ** 16n;
  }
  line('  seeded approved withdrawals', `${n} in ${s(performance.now() - seededAt)}`);
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
  const a0 = await stats(signer);
  const t0 = performance.now();
  const paying = await pass(signer, 'pay');
  const a1 = await stats(signer);
  const sent = await countStatus(ctx, ids, 'sent');
  line(
    `  ${label} one signer pass: signed, claimed, broadcast`,
    `${paying.result.signed} in ${s(paying.ms)} = ${(paying.result.signed! / (paying.ms / 1000)).toFixed(1)} payouts/s (${sent} sent)`,
  );
  line('      most nonces in the node’s pool at once (sampled)', `${inFlight}`);
  let completed = 0;
  while (completed < n) {
    await confirmPayouts(ctx);
    completed = await countStatus(ctx, ids, 'completed');
    if (completed < n) await new Promise((r) => setTimeout(r, 250));
  }
  const completedMs = performance.now() - t0;
  sampling = false;
  await sampler;
  line('      until the server completed all (depth reached)', `${s(completedMs)} = ${(n / (completedMs / 1000)).toFixed(1)} payouts/s`);
  line('      signer own time vs node vs server routes', split(paying.ms, a0, a1));
  line('      signer process CPU in the pass (user+system)', s((a1.cpuUs - a0.cpuUs) / 1000));
  line('      signer process peak RSS in the pass', mb(a1.rssPeak));
  const paid = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: hot }, fromBlock: first });
  const got = paid.reduce((a, l) => a + l.args.value!, 0n);
  line('      paid on chain = approved (count, sum)', paid.length === n && got === want ? 'yes' : `NO: ${paid.length} transfers, ${got} vs ${want}`);
  await anvil.rpc('evm_setIntervalMining', [0]);
  await anvil.rpc('evm_setAutomine', [true]);
}

/** Deposit addresses `offset`… (the test xpub's), each given 25 USDT, swept by `signer` until the server recorded every sweep. */
async function sweepPhase({ ctx, anvil, token }: PhaseEnv, signer: Signer, addresses: string[], offset: number, label: string): Promise<void> {
  const n = addresses.length;
  const tag = `sweep${offset}-`;
  await sql`insert into users (name, email, username, status, email_verified_at)
    select 'Sweep ' || i, ${tag}::text || i || '@example.test', 'S' || lpad(i::text, 8, '0'), 'active', now() from generate_series(${offset}::int, ${offset + n - 1}::int) i`.execute(
    ctx.db,
  );
  const ids = (await sql<{ id: bigint }>`select id from users where email like ${`${tag}%`} order by id`.execute(ctx.db)).rows.map((r) => r.id);
  for (let i = 0; i < n; i += 500) {
    const slice = ids.slice(i, i + 500);
    await ctx.db
      .insertInto('custody_accounts')
      .values(slice.map((user_id, j) => ({ user_id, idx: offset + i + j })))
      .execute();
    await ctx.db
      .insertInto('custody_addresses')
      .values(slice.map((user_id, j) => ({ family: 'evm' as const, address: addresses[i + j]!, user_id, idx: offset + i + j, xpub: TEST_EVM_XPUB })))
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
  const recordedNow = async () => Number((await sql<{ n: string }>`select count(*)::text as n from custody_sweeps`.execute(ctx.db)).rows[0]!.n);
  const before = await recordedNow();
  const fundAt = performance.now();
  const each = 25n * 10n ** 18n;
  await anvil.mint(token, anvil.wallet.account.address, each * BigInt(n));
  for (let i = 0; i < n; i += 100) {
    const to = addresses.slice(i, i + 100) as Hex[];
    await anvil.wallet.writeContract({ address: token, abi: TOKEN_ABI, functionName: 'batchTransfer', args: [to, to.map(() => each)], gas: 6_000_000n });
  }
  await anvil.mine(CONF);
  await balancesJob();
  line('  deposit addresses funded (batchTransfer of 100)', `${n} in ${s(performance.now() - fundAt)}`);
  const b0 = await stats(signer);
  let sweepMs = 0;
  let passes = 0;
  let toppedUp = 0;
  let recorded = 0;
  const sweepAt = performance.now();
  while (recorded < n && passes < 50) {
    const r = await pass(signer, 'sweep');
    sweepMs += r.ms;
    passes++;
    toppedUp += r.result.toppedUp!;
    // The chain and the server's balances job between passes, outside the sweeper's time.
    await anvil.mine(CONF);
    await balancesJob();
    recorded = (await recordedNow()) - before;
  }
  const b1 = await stats(signer);
  line(
    `  ${label} sweeps recorded by the server`,
    `${recorded} of ${n} (${toppedUp} gas top-ups) in ${passes} passes, ${s(sweepMs)} of sweeper time = ${(recorded / (sweepMs / 1000)).toFixed(1)} sweeps/s`,
  );
  line('      wall time with mining and balances between passes', s(performance.now() - sweepAt));
  line('      sweeper own time vs node vs server routes', split(sweepMs, b0, b1));
  line('      signer process CPU in the passes (user+system)', s((b1.cpuUs - b0.cpuUs) / 1000));
  line('      signer process peak RSS in the passes', mb(b1.rssPeak));
  const left = await Promise.all(
    addresses
      .slice(0, 20)
      .map((a) => anvil.publicClient.readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [a as Hex] }) as Promise<bigint>),
  );
  line('      first 20 of these addresses emptied', left.every((x) => x === 0n) ? 'yes' : 'NO');
}

/** An HTTP proxy in front of the node that holds every request `ms` before passing it on: a node across the internet. */
async function delayedProxy(target: string, ms: number): Promise<{ url: string; close(): Promise<void> }> {
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
  await new Promise<void>((ready) => server.listen(benchPort('BENCH_PROXY_PORT'), '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The signer's wall time in its passes, less its waits for the node and for the server: its own time. */
function split(ms: number, before: SignerStats, after: SignerStats): string {
  const rpcMs = after.rpcMs - before.rpcMs;
  const serverMs = after.serverMs - before.serverMs;
  return `${s(ms - rpcMs - serverMs)} vs ${s(rpcMs)} (${after.rpcCalls - before.rpcCalls} calls) vs ${s(serverMs)} (${after.serverCalls - before.serverCalls} calls)`;
}

async function countStatus(ctx: AppContext, ids: bigint[], status: 'sent' | 'completed'): Promise<number> {
  const r = await ctx.db
    .selectFrom('withdrawals')
    .select((e) => e.fn.countAll<string>().as('n'))
    .where('id', 'in', ids)
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
