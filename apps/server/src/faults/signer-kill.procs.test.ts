import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { admin } from '@app/core/contracts';
import pg from 'pg';
import { parseAbiItem, type Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from '../test/api';
import { nodeArgs } from '../test/entry-points';
import { createTestApp, testDbKind, type TestApp } from '../test/app';
import { newDataDir } from '../test/template-db';
import { startAnvil, type Anvil } from '../test/chain/anvil';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../test/chain/test-keys';
import { createUser, fundIncome } from '../test/factories';
import { configureCustody } from '../modules/custody/runtime';
import { createWithdrawal } from '../modules/withdrawals/service';
import { confirmPayouts } from '../modules/payouts/confirm';

const WITHDRAWALS = 8;
const KILLS = 5;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/**
 * kill -9 of the real signer process (`apps/signer/src/main.ts`, as `npm run signer` starts it) at
 * random moments while it signs, broadcasts and reports approved withdrawals (custody.md section 6):
 * after it runs to the end, every withdrawal is paid exactly once, counted on the chain, and
 * completed by the server. The signer's database is PGlite in a directory, or PostgreSQL.
 */
describe(`signer: kill -9 while paying (${testDbKind}, a real signer process)`, () => {
  let anvil: Anvil;
  let t: TestApp;
  let proc: ChildProcess | undefined;
  let pgAdmin: pg.Client | undefined;
  afterAll(async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await pgAdmin?.end();
    await t?.close();
    await anvil?.close();
  });

  it('pays every approved withdrawal once whatever moment it is killed at', async () => {
    anvil = await startAnvil({ args: ['--block-time', '1'] });
    const token = await anvil.deployToken(18);
    const signerToken = randomBytes(32).toString('hex');
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: '2',
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined } });
    const serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await anvil.rpc('anvil_setBalance', [TEST_HOT_EVM_ADDRESS, '0x56BC75E2D63100000']);
    await anvil.mint(token, TEST_HOT_EVM_ADDRESS, 10n ** 18n * 10_000n);
    const adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
    const ws: { id: bigint; to: string }[] = [];
    for (let i = 0; i < WITHDRAWALS; i++) {
      const u = await createUser(t.db, t.ctx.secret);
      await fundIncome(t.db, u.id, 20);
      const to = `0x${randomBytes(20).toString('hex')}`;
      const { id } = await createWithdrawal(t.db, u.id, { amount_usd: 20, network: 'BSC', wallet_address: to, token: 'USDT' });
      expect((await inject(t.app, admin.approveWithdrawal, { params: { id: String(id) }, token: adminToken })).statusCode).toBe(200);
      ws.push({ id, to });
    }

    const dir = newDataDir('signer-kill-');
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, TEST_MNEMONIC, { mode: 0o600 });
    let databaseUrl: string | undefined;
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      const name = `signer_kill_${randomBytes(4).toString('hex')}`;
      await pgAdmin.query(`create database ${name}`);
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
    const env = {
      PATH: process.env.PATH,
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_TOKEN: signerToken,
      SIGNER_SERVER_URL: serverUrl,
      // A copy of the run's migrated PGlite (newDataDir): the signer adds its own tables to it
      // instead of running initdb (20 s on a busy two-core machine, where most kills landed).
      SIGNER_DATA_DIR: path.join(dir, 'pglite'),
      ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}),
      SIGNER_POLL_MS: '100',
      SIGNER_OWN_SCAN: '5',
      CHAIN_BSC_RPC_URL: anvil.url,
      CHAIN_BSC_USDT: token,
      CHAIN_BSC_CONFIRMATIONS: '2',
    };
    const start = () => {
      const p = spawn(process.execPath, nodeArgs('signer'), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      p.stdout!.resume();
      p.stderr!.resume();
      return p;
    };
    const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r)));
    const sentCount = async () => (await t.db.selectFrom('withdrawals').select('id').where('status', 'in', ['sent', 'completed']).execute()).length;

    // Killed at random moments of its work: while it starts, signs, broadcasts and reports.
    for (let k = 0; k < KILLS; k++) {
      proc = start();
      await new Promise((r) => setTimeout(r, 1_500 + Math.floor(Math.random() * 2_000)));
      proc.kill('SIGKILL');
      await exited(proc);
    }
    // Then it runs until every withdrawal is sent and completed.
    proc = start();
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      await confirmPayouts(t.ctx);
      const done = await t.db.selectFrom('withdrawals').select('id').where('status', '=', 'completed').execute();
      if (done.length === WITHDRAWALS) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    proc.kill('SIGTERM');
    await exited(proc);
    expect(await sentCount()).toBe(WITHDRAWALS);
    for (const w of ws) {
      const logs = await anvil.publicClient.getLogs({
        address: token,
        event: TRANSFER,
        args: { from: TEST_HOT_EVM_ADDRESS as Hex, to: w.to as Hex },
        fromBlock: 0n,
      });
      expect(
        logs.map((l) => l.args.value),
        `withdrawal ${w.id}`,
      ).toEqual([19n * 10n ** 18n]);
      expect(await t.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).toEqual({ status: 'completed' });
    }
    // Nothing else left the hot wallet.
    const all = await anvil.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: TEST_HOT_EVM_ADDRESS as Hex }, fromBlock: 0n });
    expect(all).toHaveLength(WITHDRAWALS);
  });
});
