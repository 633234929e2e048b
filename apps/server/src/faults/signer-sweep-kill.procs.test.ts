import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { parseAbiItem, type Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, testDbKind, type TestApp } from '../test/app';
import { nodeArgs } from '../test/entry-points';
import { startAnvil, type Anvil } from '../test/chain/anvil';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../test/chain/test-keys';
import { createUser } from '../test/factories';
import { newDataDir } from '../test/template-db';
import { ensureAddress } from '../modules/custody/addresses';
import { readBalances } from '../modules/custody/balances';
import { configureCustody } from '../modules/custody/runtime';
import { watchOnce } from '../modules/custody/watcher';

const DEPTH = 2;
const AMOUNT = 40n * 10n ** 18n;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/**
 * kill -9 of the real signer process between a sweep's two transactions (custody.md section 6,
 * issue 48): once right after its gas top-up is broadcast, once right after its token transfer is
 * broadcast, before it is reported. Anvil mines only when a transaction arrives or the test says
 * so, so the signer cannot go past either point before it is killed. After the restarts the
 * deposit address is swept exactly once: one top-up from the hot address, one token transfer from
 * the deposit address, one sweep recorded by the server.
 */
describe(`signer: kill -9 in the middle of a sweep (${testDbKind}, a real signer process)`, () => {
  let anvil: Anvil;
  let t: TestApp;
  let proc: ChildProcess | undefined;
  let pgAdmin: pg.Client | undefined;
  let signerDb: string | undefined;
  afterAll(async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((r) => proc!.once('exit', r));
      proc.kill('SIGKILL');
      await gone;
    }
    if (signerDb) await pgAdmin?.query(`drop database if exists ${signerDb}`);
    await pgAdmin?.end();
    await t?.close();
    await anvil?.close();
  });

  it('sweeps once, tops up gas once, whether killed after the gas top-up or after the token transfer', async () => {
    anvil = await startAnvil();
    const token = await anvil.deployToken(18);
    const signerToken = randomBytes(32).toString('hex');
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await anvil.rpc('anvil_setBalance', [TEST_HOT_EVM_ADDRESS, '0x56BC75E2D63100000']);

    // A credited deposit on a user's address (a dev account of the test mnemonic, emptied of gas so
    // that the sweep must top it up), and the balances job's read that lists it for the signer.
    const u = await createUser(t.db, t.ctx.secret);
    const deposit = (await ensureAddress(t.ctx, u.id, 'evm')).hex.toLowerCase() as Hex;
    await anvil.rpc('anvil_setBalance', [deposit, '0x0']);
    await anvil.mint(token, deposit, AMOUNT);
    await anvil.mine(DEPTH);
    for (let i = 0; i < 3; i++) await watchOnce(t.ctx, 'bsc');
    await readBalances(t.ctx, 'bsc');
    const startBlock = await anvil.head();

    const dir = newDataDir('signer-sweep-kill-');
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, TEST_MNEMONIC, { mode: 0o600 });
    let databaseUrl: string | undefined;
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      const name = `signer_sweep_kill_${randomBytes(4).toString('hex')}`;
      await pgAdmin.query(`create database ${name}`);
      signerDb = name;
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    const env = {
      PATH: process.env.PATH,
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_TOKEN: signerToken,
      SIGNER_SERVER_URL: serverUrl,
      // A copy of the run's migrated PGlite (newDataDir): the signer adds its own tables to it
      // instead of running initdb, which takes 20 s on a busy two-core machine.
      SIGNER_DATA_DIR: path.join(dir, 'pglite'),
      ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}),
      SIGNER_POLL_MS: '100',
      SIGNER_OWN_SCAN: '5',
      SWEEP_MIN_USD: '10',
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: String(DEPTH),
    };
    const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r)));
    const output: string[] = [];
    /** Starts the signer; with `killOn`, kill -9 the moment it logs that message (nothing of it runs after). */
    const start = (killOn?: string): { proc: ChildProcess; killed: Promise<void> } => {
      const p = spawn(process.execPath, nodeArgs('signer'), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let buffered = '';
      let sent = false;
      const killed = new Promise<void>((resolve, reject) => {
        p.stdout!.on('data', (d: Buffer) => {
          buffered += d.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          for (const line of lines) {
            output.push(line);
            if (killOn && !sent && line.includes(`"msg":"${killOn}"`)) {
              sent = true;
              p.kill('SIGKILL');
              resolve();
            }
          }
        });
        p.once('exit', () => (killOn && p.signalCode !== 'SIGKILL' ? reject(new Error(`signer exited before "${killOn}": ${output.join('\n')}`)) : resolve()));
      });
      p.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      return { proc: p, killed };
    };
    const within = async <T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + ms;
      for (;;) {
        const got = await probe();
        if (got !== undefined) return got;
        if (Date.now() > deadline) throw new Error(`${what} did not happen in ${ms} ms: ${output.slice(-20).join('\n')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    // 1. Killed right after broadcasting the gas top-up; the top-up is mined (automine), not final.
    let s = start('sweep: gas top-up sent');
    proc = s.proc;
    await s.killed;
    await exited(proc);
    // 2. Restarted: it must not top up again; once the top-up is final it signs and sends the token
    //    transfer, and is killed right after that broadcast, before any report.
    s = start('sweep: token transfer sent');
    proc = s.proc;
    // A few passes of the restarted signer over the not-yet-final top-up, then the blocks that make it final.
    await within('the restart', 60_000, async () => (output.filter((l) => l.includes('"msg":"signer started"')).length === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 1_000));
    await anvil.mine(DEPTH);
    await s.killed;
    await exited(proc);
    // 3. Restarted again: the transfer becomes final and the sweep is reported and recorded, once.
    proc = start().proc;
    await anvil.mine(DEPTH);
    const recorded = await within('the sweep record', 60_000, async () => {
      const rows = await t.db.selectFrom('custody_sweeps').selectAll().where('address', '=', deposit).execute();
      return rows.length ? rows : undefined;
    });
    // More passes: nothing further may happen.
    await new Promise((r) => setTimeout(r, 1_500));
    proc.kill('SIGTERM');
    await exited(proc);

    const rows = await t.db.selectFrom('custody_sweeps').selectAll().where('address', '=', deposit).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ network: 'bsc', destination: 'hot', amount_raw: String(AMOUNT) });
    expect(recorded[0]!.token_tx).toBe(rows[0]!.token_tx);
    const out = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: deposit }, fromBlock: 0n });
    expect(out.map((l) => [l.args.to!.toLowerCase(), l.args.value, l.transactionHash.toLowerCase()])).toEqual([
      [TEST_HOT_EVM_ADDRESS.toLowerCase(), AMOUNT, rows[0]!.token_tx],
    ]);
    // Every transaction the hot address sent since the deposit: the one top-up, nothing else.
    const fromHot: { hash: string; to: string | null }[] = [];
    for (let b = startBlock + 1n; b <= (await anvil.head()); b++) {
      const block = await anvil.publicClient.getBlock({ blockNumber: b, includeTransactions: true });
      for (const tx of block.transactions)
        if (tx.from.toLowerCase() === TEST_HOT_EVM_ADDRESS.toLowerCase()) fromHot.push({ hash: tx.hash, to: tx.to?.toLowerCase() ?? null });
    }
    expect(fromHot).toEqual([{ hash: rows[0]!.gas_tx, to: deposit }]);
  }, 180_000);
});
