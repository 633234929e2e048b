import { createWalletClient, http, parseEther, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { TOKEN_ABI } from '../../test/chain/anvil';
import { admin as adminContracts, health as healthContracts } from '@app/core/contracts';
import { inject } from '../../test/api';
import { auth, createUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { ensureAddress } from './addresses';
import { readBalances } from './balances';
import { displayAddress } from './derive';
import { TEST_MNEMONIC } from '../../test/chain/test-keys';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';

const TREASURY = '0x000000000000000000000000000000000000dEaD';

const METRICS_TOKEN = 'metrics-token-for-custody-tests-0123';

/** The operator's side of the chain gateway: the console's view, crediting what waits, a halted network in health and metrics, resuming. */
describe('the operator view of the chain gateway', () => {
  const c = useChainTest({ METRICS_TOKEN });
  const admin = () => createUser(c.t.db, c.t.ctx.secret, { isAdmin: true });
  const view = async (token: string) => {
    // The page shows what the balances job stored (it never asks a node itself): the job runs first, as the scheduler would.
    for (const network of ['bsc', 'polygon'] as const) await readBalances(c.t.ctx, network);
    const res = await inject(c.t.app, adminContracts.custody, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.data();
  };
  /**
   * The operator's manual sweep, as docs/custody.md says it ("Sweeping by hand"): with the path the
   * Custody page lists beside the address, the key comes from the seed alone, in the operator's own
   * wallet (viem's mnemonicToAccount: the BIP-44 path every wallet uses, m/44'/60'/0'/0/<index>;
   * the server has only the xpub); a little gas is sent to the address, and the key signs a token
   * transfer to the treasury. The address the page shows must be the one this key spends.
   */
  const sweep = async (line: { address: string; path: string }, usdt: string) => {
    // viem types the path as Ethereum's (m/44'/60'/…), which this one is; the page gives it whole.
    const key = mnemonicToAccount(TEST_MNEMONIC, { path: line.path as `m/44'/60'/${string}` });
    expect(key.address).toBe(line.address);
    await c.anvil.publicClient.waitForTransactionReceipt({
      hash: await c.anvil.wallet.sendTransaction({ to: key.address, value: parseEther('0.01') }),
      pollingInterval: 20,
    });
    const wallet = createWalletClient({ account: key, chain: c.anvil.chain, transport: http(c.anvil.url, { retryCount: 0 }) });
    const hash = await wallet.writeContract({ address: c.bsc as Hex, abi: TOKEN_ABI, functionName: 'transfer', args: [TREASURY, usdtRaw(usdt, 18)] });
    expect((await c.anvil.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe('success');
  };

  it('shows heights, deposits by status, the chain against the ledger and the addresses to sweep; a difference is flagged', async () => {
    const a = await admin();
    await c.tick();
    const u1 = await c.user();
    const u2 = await c.user();
    await c.deposit('bsc', u1.evm, '25');
    await c.deposit('bsc', u2.evm, '0.5');
    await c.anvil.mine(5);
    await c.tick();
    const v = await view(a.token);
    expect(v.gateway).toBe('chain');
    const bsc = v.networks.find((n) => n.network === 'bsc')!;
    expect(bsc).toMatchObject({
      halted: false,
      confirmations: 5,
      lag: 0,
      deposits: { seen: 0, credited: 1, below_minimum: 1, held: 0, orphaned: 0 },
      credited_total: 25,
      reconciliation: { on_chain: 25.5, expected: 25.5, ledger_credited: 25, difference: 0, flagged: false },
    });
    expect(bsc.head! - bsc.final_height!).toBe(4);
    const i1 = (await ensureAddress(c.t.ctx, u1.id, 'evm')).index;
    const i2 = (await ensureAddress(c.t.ctx, u2.id, 'evm')).index;
    expect(bsc.sweep.map((s) => [s.address, s.index, s.path, s.balance])).toEqual([
      [u1.evmDisplay, i1, `m/44'/60'/0'/0/${i1}`, 25],
      [u2.evmDisplay, i2, `m/44'/60'/0'/0/${i2}`, 0.5],
    ]);
    expect(v.not_credited).toEqual([expect.objectContaining({ network: 'bsc', username: u2.username, amount: 0.5 })]);

    // The operator sweeps 5 USDT off u1's address by hand: the chain no longer matches, and the page says so.
    await sweep(bsc.sweep[0]!, '5');
    await c.anvil.mine(5);
    await c.tick();
    const after = (await view(a.token)).networks.find((n) => n.network === 'bsc')!;
    expect(after.reconciliation).toMatchObject({ on_chain: 20.5, expected: 25.5, difference: -5, flagged: true });
    expect(await c.balance(u1.id)).toBe(25_000_000n);
  });

  it("hands out Tron addresses the seed's own Tron key spends (m/44'/195'/0'/0/<index>, what a wallet derives to sweep)", async () => {
    const u = await c.user();
    const tron = await ensureAddress(c.t.ctx, u.id, 'tron');
    // viem types the path as Ethereum's (m/44'/60'/…) but derives any BIP-32 path; Tron's coin type is 195.
    const key = mnemonicToAccount(TEST_MNEMONIC, { path: `m/44'/195'/0'/0/${tron.index}` as `m/44'/60'/${string}` });
    expect(tron.display).toMatch(/^T/);
    expect(displayAddress('tron', key.address)).toBe(tron.display);
  });

  it('lets an admin credit a transfer under the minimum, once, with an audit record', async () => {
    const a = await admin();
    const w = (await view(a.token)).not_credited[0]!;
    const userId = BigInt(w.user_id);
    const credit = () => inject(c.t.app, adminContracts.custodyCredit, { params: { id: w.id }, token: a.token });
    expect((await credit()).statusCode).toBe(200);
    expect(await c.balance(userId)).toBe(500_000n);
    expect((await credit()).statusCode).toBe(404);
    expect(await c.balance(userId)).toBe(500_000n);
    const p = await c.t.db.selectFrom('payments').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ status: 'finished', credited_amount: 500_000n, needs_review: false });
    const log = await c.t.db.selectFrom('admin_audit_log').selectAll().where('action', '=', 'custody.credit').execute();
    expect(log).toHaveLength(1);
    // A user cannot.
    const u = await createUser(c.t.db, c.t.ctx.secret);
    expect((await inject(c.t.app, adminContracts.custodyCredit, { params: { id: w.id }, token: u.token })).statusCode).toBe(403);
  });

  it('shows a halted network in /api/health, /metrics and the console; only an admin resumes it, and no balance moved', async () => {
    const a = await admin();
    await c.tick();
    const u = await c.user();
    await c.deposit('bsc', u.evm, '10');
    await c.anvil.mine(5);
    await c.tick();
    expect(await c.balance(u.id)).toBe(10_000_000n);
    const before = await ledger.verify(c.t.db);
    await c.anvil.reorg(8);
    expect((await c.tick()).halted).toBe(true);

    // The details need METRICS_TOKEN (or an admin session): an anonymous caller gets the status only.
    expect((await inject(c.t.app, healthContracts.check)).data()).toEqual({ status: 'ok' });
    const health = (await inject(c.t.app, healthContracts.check, { token: METRICS_TOKEN })).data();
    // The watchers' lines ('unknown' where the chain gateway does not run).
    const chain = Array.isArray(health.chain) ? health.chain : [];
    expect(chain.find((n) => n.network === 'bsc')).toMatchObject({
      halted: true,
      halted_reason: expect.stringMatching(/credited line/),
    });
    expect(chain.find((n) => n.network === 'polygon')).toMatchObject({ halted: false });
    // /metrics is Prometheus text outside /api: no contract describes it.
    const metrics = (await c.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;
    expect(metrics).toMatch(/chain_halted\{network="bsc"\} 1/);
    expect(metrics).toMatch(/chain_state\{network="bsc",state="halted"\} 1/);
    expect(metrics).toMatch(/chain_halted\{network="polygon"\} 0/);
    expect(metrics).toMatch(/chain_lag_blocks\{network="bsc"\} \d+/);
    expect(metrics).toMatch(/chain_deposits\{network="bsc",status="credited"\} \d+/);
    expect((await view(a.token)).networks.find((n) => n.network === 'bsc')!.halted).toBe(true);

    const u2 = await createUser(c.t.db, c.t.ctx.secret);
    expect((await inject(c.t.app, adminContracts.custodyResume, { params: { network: 'bsc' }, token: u2.token })).statusCode).toBe(403);
    // A network the contract's params refuse (its type cannot hold 'nope'): the path by hand.
    expect((await c.t.app.inject({ method: 'POST', url: '/api/admin/custody/nope/resume', headers: auth(a.token) })).statusCode).toBe(400);
    const resumed = await inject(c.t.app, adminContracts.custodyResume, { params: { network: 'bsc' }, token: a.token });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await inject(c.t.app, adminContracts.custodyResume, { params: { network: 'bsc' }, token: a.token })).statusCode).toBe(400);

    // The watcher goes on from the node's chain as it is; the deposit it credited stays, nothing is credited twice.
    const next = await c.deposit('bsc', u.evm, '3');
    await c.anvil.mine(5);
    for (let i = 0; i < 3; i++) await c.tick();
    expect(await c.balance(u.id)).toBe(13_000_000n);
    const after = await ledger.verify(c.t.db);
    expect(after.ok).toBe(true);
    expect(after.entries).toBe(before.entries + 1);
    expect(next.txHash).toBeTruthy();
  });
});
