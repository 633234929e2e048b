import { randomBytes } from 'node:crypto';
import { admin } from '@app/core/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTronTx, tronAddressOf, TronNode } from '../../../../signer/src/tron';
import { inject } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { TEST_TRON_XPUB } from '../../test/chain/test-keys';
import { startTronFake, type TronFake } from '../../test/chain/tron-fake';
import { createUser, fundIncome } from '../../test/factories';
import { displayAddress } from '../custody/derive';
import { configureCustody } from '../custody/runtime';
import { createWithdrawal } from '../withdrawals/service';

/**
 * PAYOUTS=manual on Tron with CHAIN_TRON_API_URL set (issue 48): the admin pays from their own
 * wallet and pastes the txID; it is accepted only for a solidified, successful TRC-20 Transfer of
 * the configured token to the withdrawal's address for exactly its receive amount, from any sender
 * (as on EVM), and never for a second withdrawal. Real Tron transactions: built by the fake node,
 * signed with the admin wallet's key, broadcast, executed on anvil.
 */
const SOLID = 19;

describe('a pasted Tron payout hash is held to chain evidence', () => {
  let anvil: Anvil;
  let fake: TronFake;
  let t: TestApp;
  let token: `0x${string}`;
  let other: `0x${string}`;
  let adminToken: string;
  let node: TronNode;
  // The admin's private wallet: neither the hot wallet nor any address of ours.
  const walletKey = randomBytes(32);
  const wallet = tronAddressOf(walletKey);

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(6);
    other = await anvil.deployToken(6, 'FAKE');
    fake = await startTronFake(anvil.url);
    node = new TronNode(fake.url);
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
      RATE_LIMIT_MONEY_PER_MIN: '100000',
    });
    expect(t.ctx.config.payments.payouts.mode).toBe('manual');
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
    adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
    const wallet20 = `0x${wallet.slice(2)}`;
    await anvil.rpc('anvil_setBalance', [wallet20, `0x${(10n ** 21n).toString(16)}`]);
    await anvil.mint(token, wallet20, 1_000_000_000n);
    await anvil.mint(other, wallet20, 1_000_000_000n);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await anvil?.close();
  });

  /** A pending Tron withdrawal of `amount` USD (receives 95 %) to a fresh address (41… hex). */
  async function pendingWithdrawal(amount: number): Promise<{ id: bigint; to: string }> {
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, amount);
    const to20 = `0x${randomBytes(20).toString('hex')}`;
    const { id } = await createWithdrawal(t.db, u.id, { amount_usd: amount, network: 'TRON', wallet_address: displayAddress('tron', to20), token: 'USDT' });
    return { id, to: `41${to20.slice(2)}` };
  }
  const receive = (amount: number) => BigInt(amount * 950_000);
  /** A TRC-20 transfer from the admin's wallet, signed and broadcast; its txID. */
  async function pay(to: string, raw: bigint, contract: string = token): Promise<string> {
    const unsigned = await node.buildTransfer({ owner: wallet, token: `41${contract.slice(2)}`, to, raw, feeLimit: 30_000_000 });
    expect(await node.broadcast(signTronTx(unsigned, walletKey))).toBe('sent');
    return unsigned.txID;
  }
  const complete = (id: bigint, tx_hash: string) =>
    inject(t.app, admin.completeWithdrawal, { params: { id: String(id) }, body: { tx_hash }, token: adminToken });
  const row = (id: bigint) => t.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('accepts only a solidified transfer of the receive amount to the address; refuses each other payment with its reason', async () => {
    const w = await pendingWithdrawal(20);
    const refusal = async (hash: string) => {
      const res = await complete(w.id, hash);
      expect(res.statusCode).toBe(400);
      const body = res.json<{ success: boolean; code: string; message: string; errors: { tx_hash: string } }>();
      expect(body).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
      return body.errors.tx_hash;
    };
    expect(await refusal(randomBytes(32).toString('hex'))).toMatch(/does not know this transaction/);
    expect(await refusal(await pay(w.to, receive(20) - 1n))).toMatch(/does not pay the receive amount/);
    expect(await refusal(await pay(`41${randomBytes(20).toString('hex')}`, receive(20)))).toMatch(/does not pay the receive amount/);
    expect(await refusal(await pay(w.to, receive(20), other))).toMatch(/does not pay the receive amount/);
    // More than the wallet holds: included in a block, reverted.
    expect(await refusal(await pay(w.to, 10n ** 12n))).toMatch(/failed on chain/);
    const right = await pay(w.to, receive(20));
    await anvil.mine(SOLID - 2); // 18 confirmations: one short of the solidified block
    expect(await refusal(right)).toMatch(/not final yet: not solidified \(18 of 19/);
    expect(await row(w.id)).toMatchObject({ status: 'pending', tx_hash: null });
    await anvil.mine(1);
    const res = await complete(w.id, right);
    expect(res.statusCode).toBe(200);
    expect(await row(w.id)).toMatchObject({ status: 'completed', tx_hash: right });
  });

  it('refuses a hash already recorded for another withdrawal, even one paying the same amount to the same address', async () => {
    const first = await pendingWithdrawal(30);
    const hash = await pay(first.to, receive(30));
    await anvil.mine(SOLID);
    expect((await complete(first.id, hash)).statusCode).toBe(200);
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, 30);
    const { id } = await createWithdrawal(t.db, u.id, {
      amount_usd: 30,
      network: 'TRON',
      wallet_address: displayAddress('tron', `0x${first.to.slice(2)}`),
      token: 'USDT',
    });
    const res = await complete(id, hash);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT', message: `This transaction is already recorded for withdrawal #${first.id}` });
    expect(await row(id)).toMatchObject({ status: 'pending', tx_hash: null });
  });
});
