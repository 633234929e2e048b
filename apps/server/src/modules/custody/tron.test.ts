import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { startAnvil, type Anvil } from '../../test/chain/anvil';
import { startTronFake, type TronFake } from '../../test/chain/tron-fake';
import { payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';
import * as ledger from '../ledger/service';
import { addressHex, displayAddress } from './derive';
import { configureCustody } from './runtime';
import { TEST_TRON_XPUB } from '../../test/chain/test-keys';
import { watchOnce } from './watcher';

/**
 * Tron through the fake full node / TronGrid (test/chain/tron-fake.ts) in front of anvil: T…
 * addresses, final only once solidified (19 blocks), and 429 / 5xx answers met with back-off.
 */
describe('the Tron watcher through the full node’s documented API', () => {
  let anvil: Anvil;
  let fake: TronFake;
  let t: TestApp;
  let token: `0x${string}`;
  const tick = () => watchOnce(t.ctx, 'tron');
  const balance = async (id: bigint) => (await ledger.getBalances(t.db, id)).deposit;

  beforeAll(async () => {
    anvil = await startAnvil();
    token = await anvil.deployToken(6);
    fake = await startTronFake(anvil.url);
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_TRON_XPUB: TEST_TRON_XPUB,
      CHAIN_TRON_API_URL: fake.url,
      CHAIN_TRON_USDT: displayAddress('tron', token),
      RATE_LIMIT_AUTH_PER_MIN: '1000',
    });
    configureCustody(t.ctx, { tuning: { sleep: async () => undefined, startAt: () => 0n } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await anvil?.close();
  });

  it('answers a T… address and credits a transfer once it is solidified (19 blocks), keyed by the Tron transaction id', async () => {
    await tick();
    const u = await createUser(t.db, t.ctx.secret);
    const addresses = (await inject(t.app, payments.addresses, { token: u.token })).data();
    expect(Object.keys(addresses)).toEqual(['usdttrc20']);
    expect(addresses.usdttrc20).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const created = (await inject(t.app, payments.create, { token: u.token, body: { amount: 30, currency: 'usdttrc20' } })).data();
    expect(created.payAddress).toBe(addresses.usdttrc20);

    const m = await anvil.mint(token, addressHex('tron', addresses.usdttrc20!)!, 30_000_000n);
    await tick();
    const p = () => t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', created.payment_id).executeTakeFirstOrThrow();
    expect((await p()).status).toBe('confirming');
    await anvil.mine(17); // 18 confirmations: not yet solidified
    await tick();
    expect(await balance(u.id)).toBe(0n);
    expect((await p()).confirmations).toBe(18);
    await anvil.mine(1); // 19: solidified
    await tick();
    expect(await balance(u.id)).toBe(30_000_000n);
    const row = await p();
    expect(row.status).toBe('finished');
    expect(row.tx_hash).toBe(m.txHash.slice(2));
    const keys = await t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', u.id).execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual([`chain:tron:${m.txHash.slice(2)}:0`]);
    const status = (await inject(t.app, payments.status, { token: u.token, body: { payment_id: created.payment_id } })).data();
    expect(JSON.parse(status.extra).explorer_url).toBe(`https://tronscan.org/#/transaction/${m.txHash.slice(2)}`);
  });

  it('meets 429 and 5xx answers with back-off, and a tick that gives up loses nothing', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const address = (await inject(t.app, payments.addresses, { token: u.token })).data().usdttrc20!;
    await anvil.mint(token, addressHex('tron', address)!, 5_500_000n);
    await anvil.mine(19);
    fake.fail(3, 429);
    await tick();
    fake.fail(2, 502);
    await tick();
    expect(await balance(u.id)).toBe(5_500_000n);

    await anvil.mint(token, addressHex('tron', address)!, 2_000_000n);
    await anvil.mine(19);
    fake.fail(50, 503);
    await expect(tick()).rejects.toThrow(/failed 5 times/);
    fake.fail(0, 503);
    await tick();
    expect(await balance(u.id)).toBe(7_500_000n);
  });

  it('TronGrid’s TRC-20 history with only_confirmed shows a transfer only once solidified, in T… form', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const address = (await inject(t.app, payments.addresses, { token: u.token })).data().usdttrc20!;
    await anvil.mint(token, addressHex('tron', address)!, 1_250_000n);
    const history = async (confirmed: boolean) =>
      (await (
        await fetch(`${fake.url}/v1/accounts/${address}/transactions/trc20?only_confirmed=${confirmed}&contract_address=${displayAddress('tron', token)}`)
      ).json()) as { data: { to: string; value: string; type: string }[]; success: boolean };
    expect((await history(true)).data).toEqual([]);
    expect((await history(false)).data).toEqual([expect.objectContaining({ to: address, value: '1250000', type: 'Transfer' })]);
    await anvil.mine(18);
    expect((await history(true)).data).toHaveLength(1);
  });
});
