import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { admin } from '@app/core/contracts';
import pg from 'pg';
import { parseAbiItem, type Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveKeys } from '../../../signer/src/keys';
import { inject } from '../test/api';
import { createTestApp, testDbKind, type TestApp } from '../test/app';
import { startAnvil, type Anvil } from '../test/chain/anvil';
import { TEST_MNEMONIC, TEST_TRON_XPUB } from '../test/chain/test-keys';
import { startTronFake, type TronFake } from '../test/chain/tron-fake';
import { nodeArgs } from '../test/entry-points';
import { createUser, fundIncome } from '../test/factories';
import { newDataDir } from '../test/template-db';
import { displayAddress } from '../modules/custody/derive';
import { configureCustody } from '../modules/custody/runtime';
import { createWithdrawal } from '../modules/withdrawals/service';
import { confirmPayouts } from '../modules/payouts/confirm';

const WITHDRAWALS = 8;
const KILLS = 3;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * kill -9 of the real signer process at random moments while it pays approved Tron withdrawals
 * (the Tron fake in front of anvil, blocks mined as it works): after it runs to the end, every
 * withdrawal is paid exactly once, counted on the chain from the Tron hot address's transfers, and
 * completed by the server once solidified. Tron has no nonce: what keeps a restart from paying again
 * is the signed transaction stored before broadcast and re-signed only once it has provably expired.
 */
describe(`signer: kill -9 while paying on Tron (${testDbKind}, a real signer process)`, () => {
  let anvil: Anvil | undefined;
  let fake: TronFake | undefined;
  let t: TestApp | undefined;
  let proc: ChildProcess | undefined;
  let pgAdmin: pg.Client | undefined;
  let signerDb: string | undefined;
  afterAll(async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    if (signerDb) await pgAdmin?.query(`drop database if exists ${signerDb}`);
    await pgAdmin?.end();
    await t?.close();
    await fake?.close();
    await anvil?.close();
  });

  it('pays every approved Tron withdrawal once whatever moment it is killed at', async () => {
    anvil = await startAnvil();
    const chain = anvil;
    const token = await chain.deployToken(6);
    fake = await startTronFake(chain.url);
    const hot20 = `0x${deriveKeys(TEST_MNEMONIC, 1).tronHot.address.slice(2)}` as Hex;
    const signerToken = randomBytes(32).toString('hex');
    const app = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(signerToken).digest('hex'),
      CUSTODY_HOT_TRON_ADDRESS: displayAddress('tron', hot20),
      RATE_LIMIT_MONEY_PER_MIN: '100000',
    });
    t = app;
    configureCustody(app.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    const serverUrl = await app.app.listen({ port: 0, host: '127.0.0.1' });
    // 1000 TRX for energy (the fake counts anvil's wei / 10^12 as sun), 10,000 USDT.
    await chain.rpc('anvil_setBalance', [hot20, `0x${(10n ** 21n).toString(16)}`]);
    await chain.mint(token, hot20, 10_000_000_000n);
    const adminToken = (await createUser(app.db, app.ctx.secret, { isAdmin: true })).token;
    const ws: { id: bigint; to: Hex }[] = [];
    for (let i = 0; i < WITHDRAWALS; i++) {
      const u = await createUser(app.db, app.ctx.secret);
      await fundIncome(app.db, u.id, 20);
      const to = `0x${randomBytes(20).toString('hex')}` as Hex;
      const { id } = await createWithdrawal(app.db, u.id, { amount_usd: 20, network: 'TRON', wallet_address: displayAddress('tron', to), token: 'USDT' });
      expect((await inject(app.app, admin.approveWithdrawal, { params: { id: String(id) }, token: adminToken })).statusCode).toBe(200);
      ws.push({ id, to });
    }

    const dir = newDataDir('signer-tron-kill-');
    const mnemonicFile = path.join(dir, 'mnemonic');
    writeFileSync(mnemonicFile, TEST_MNEMONIC, { mode: 0o600 });
    let databaseUrl: string | undefined;
    if (testDbKind === 'postgres') {
      pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await pgAdmin.connect();
      signerDb = `signer_tron_kill_${randomBytes(4).toString('hex')}`;
      await pgAdmin.query(`create database ${signerDb}`);
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = `/${signerDb}`;
      databaseUrl = u.toString();
    }
    const env = {
      PATH: process.env.PATH,
      SIGNER_MNEMONIC_FILE: mnemonicFile,
      SIGNER_TOKEN: signerToken,
      SIGNER_SERVER_URL: serverUrl,
      // A copy of the run's migrated PGlite (newDataDir): the signer adds its own tables, no initdb.
      SIGNER_DATA_DIR: path.join(dir, 'pglite'),
      ...(databaseUrl ? { SIGNER_DATABASE_URL: databaseUrl } : {}),
      SIGNER_POLL_MS: '100',
      SIGNER_OWN_SCAN: '5',
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
    };
    /**
     * Starts the signer; with `killAt`, kill -9 the moment its `killAt`-th "payout signed" line
     * arrives (that payout stored, then claimed and broadcast: the kill lands somewhere in that).
     */
    const start = (killAt?: number) => {
      const p = spawn(process.execPath, nodeArgs('signer'), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      const run = { proc: p, signed: 0 };
      p.stdout!.on('data', (d: Buffer) => {
        run.signed += String(d).split('"msg":"payout signed"').length - 1;
        if (killAt !== undefined && run.signed >= killAt) p.kill('SIGKILL');
      });
      p.stderr!.resume();
      return run;
    };
    const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r)));
    /** Blocks keep coming while the signer works, one every 300 ms, as a chain's would. */
    const mineFor = async (ms: number) => {
      for (const until = Date.now() + ms; Date.now() < until;) {
        await chain.mine(1);
        await sleep(300);
      }
    };

    // Killed while it works: right after its 1st, 2nd and 3rd signature of a run (stored, then
    // claimed and broadcast: the kill lands anywhere in that), blocks coming all the while.
    const sentNow = async () => (await app.db.selectFrom('withdrawals').select('id').where('status', 'in', ['sent', 'completed']).execute()).length;
    const sentAtKills: number[] = [];
    for (let k = 1; k <= KILLS; k++) {
      const run = start(k);
      proc = run.proc;
      for (const until = Date.now() + 15_000; proc.exitCode === null && proc.signalCode === null && Date.now() < until;) await mineFor(300);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited(proc);
      expect(run.signed, `kill ${k}: the signer signed before it was killed`).toBeGreaterThanOrEqual(k);
      sentAtKills.push(await sentNow());
    }
    console.log(
      `[faults] tron signer kill -9 ×${KILLS}, after the 1st, 2nd and 3rd signature: withdrawals sent at each kill ${sentAtKills.join(', ')} of ${WITHDRAWALS}`,
    );
    // Then it runs until every withdrawal is sent and completed (solidified: 19 blocks deep).
    proc = start().proc;
    const completed = async () => (await app.db.selectFrom('withdrawals').select('id').where('status', '=', 'completed').execute()).length;
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && (await completed()) < WITHDRAWALS;) {
      await chain.mine(4);
      await confirmPayouts(app.ctx);
      await sleep(200);
    }
    proc.kill('SIGTERM');
    await exited(proc);

    for (const w of ws) {
      const logs = await chain.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: hot20, to: w.to }, fromBlock: 0n });
      expect(
        logs.map((l) => l.args.value),
        `withdrawal ${w.id}`,
      ).toEqual([19_000_000n]);
      expect(await app.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow()).toEqual({ status: 'completed' });
    }
    // Nothing else left the hot wallet.
    const all = await chain.publicClient.getLogs({ address: token, event: TRANSFER, args: { from: hot20 }, fromBlock: 0n });
    expect(all).toHaveLength(WITHDRAWALS);
  });
});
