import { createHash, randomBytes } from 'node:crypto';
import { admin } from '@app/core/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from '../../test/api';
import { createTestApp, type TestApp } from '../../test/app';
import { TEST_EVM_XPUB, TEST_HOT_EVM_ADDRESS } from '../../test/chain/test-keys';
import { createUser } from '../../test/factories';
import { SWEEPS_SHOWN } from './service';
import '../withdrawals/table';

/**
 * GET /api/admin/payouts lists the recorded sweeps (issue 48, operator view): newest first, at
 * most SWEEPS_SHOWN with the total, amounts read by each network's own decimals, explorer links.
 * The sweeps are written as recordSweep writes them once the chain showed them (signer.test.ts
 * proves that part on anvil); no node is read in the request, so no chain runs here: the RPC
 * address is one nothing listens on.
 */
const NOWHERE = 'http://127.0.0.1:9';
const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`;

describe('the operator payout view: sweeps', () => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp({
      PAYMENTS_GATEWAY: 'chain',
      CUSTODY_EVM_XPUB: TEST_EVM_XPUB,
      CHAIN_BSC_RPC_URL: NOWHERE,
      CHAIN_BSC_USDT: hex(20),
      CHAIN_BSC_DECIMALS: '18',
      CHAIN_POLYGON_RPC_URL: NOWHERE,
      CHAIN_POLYGON_USDT: hex(20),
      CHAIN_POLYGON_DECIMALS: '6',
      PAYOUTS: 'signer',
      SIGNER_TOKEN_HASH: createHash('sha256').update(randomBytes(32)).digest('hex'),
      CUSTODY_HOT_EVM_ADDRESS: TEST_HOT_EVM_ADDRESS,
    });
    adminToken = (await createUser(t.db, t.ctx.secret, { isAdmin: true })).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  const view = async () => {
    const res = await inject(t.app, admin.payouts, { token: adminToken });
    expect(res.statusCode).toBe(200);
    return res.data();
  };

  it('says there are none before the first sweep', async () => {
    expect((await view()).sweeps).toEqual({ total: 0, shown: SWEEPS_SHOWN, items: [] });
  });

  it('lists the newest sweeps first with the total, exact amounts by decimals, and explorer links for the gas and token transactions', async () => {
    const first = { token: hex(32), gas: hex(32) };
    // 12.345678912345678912 USDT on an 18-decimal token: shown cut to 6 decimals, never rounded up.
    await t.db
      .insertInto('custody_sweeps')
      .values({
        network: 'bsc',
        address: hex(20),
        amount_raw: '12345678912345678912',
        destination: 'hot',
        gas_tx: first.gas,
        token_tx: first.token,
        block_number: 41n,
      })
      .execute();
    // More than the view shows: the oldest fall off the list but stay in the total.
    for (let i = 0; i < SWEEPS_SHOWN; i++) {
      await t.db
        .insertInto('custody_sweeps')
        .values({
          network: 'bsc',
          address: hex(20),
          amount_raw: String(10n ** 18n * BigInt(i + 1)),
          destination: 'hot',
          gas_tx: null,
          token_tx: hex(32),
          block_number: BigInt(50 + i),
        })
        .execute();
    }
    const cold = { address: hex(20), token: hex(32) };
    await t.db
      .insertInto('custody_sweeps')
      .values({ network: 'polygon', address: cold.address, amount_raw: '2500000', destination: 'cold', gas_tx: null, token_tx: cold.token, block_number: 90n })
      .execute();

    const v = await view();
    expect(v.sweeps.total).toBe(SWEEPS_SHOWN + 2);
    expect(v.sweeps.items).toHaveLength(SWEEPS_SHOWN);
    expect(v.sweeps.items[0]).toEqual({
      id: expect.any(String),
      network: 'polygon',
      address: cold.address,
      amount: 2.5,
      destination: 'cold',
      gas_tx: null,
      gas_explorer_url: null,
      token_tx: cold.token,
      token_explorer_url: `https://polygonscan.com/tx/${cold.token}`,
      block: 90,
      recorded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(v.sweeps.items[1]).toMatchObject({ network: 'bsc', amount: SWEEPS_SHOWN, gas_tx: null, block: 50 + SWEEPS_SHOWN - 1 });
    const ids = v.sweeps.items.map((s) => BigInt(s.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));
    expect(v.sweeps.items.some((s) => s.token_tx === first.token)).toBe(false);

    // Once the newer ones are gone the first shows, with its gas top-up linked too.
    await t.db.deleteFrom('custody_sweeps').where('token_tx', '!=', first.token).execute();
    const only = (await view()).sweeps;
    expect(only.total).toBe(1);
    expect(only.items[0]).toMatchObject({
      amount: 12.345678,
      gas_tx: first.gas,
      gas_explorer_url: `https://bscscan.com/tx/${first.gas}`,
      token_explorer_url: `https://bscscan.com/tx/${first.token}`,
      block: 41,
    });
    // The reconciliation counts the same sweeps (to the hot wallet here).
    expect(v.reconciliation.find((r) => r.network === 'polygon')).toMatchObject({ swept_to_cold: 2.5, swept_to_hot: 0 });
  });

  it('is for admins only', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, admin.payouts, { token: u.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
    expect((await inject(t.app, admin.payouts)).statusCode).toBe(401);
  });
});
