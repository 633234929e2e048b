import { describe, expect, it } from 'vitest';
import { history as historyContracts, payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import * as ledger from '../ledger/service';
import { chainKey } from '../payments/service';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';
import { configureCustody, custodyRuntime } from './runtime';
import { creditBatch } from './credit';

/**
 * The watcher against a real local chain (anvil, fresh for this file), on PGlite and PostgreSQL:
 * credit at the depth and once, reorgs before and under the credited line, late and unclaimed
 * deposits, amounts of 18 and 6 decimals, a look-alike token.
 */
describe('the chain watcher on anvil', () => {
  const c = useChainTest();
  const obs = (txHash: string) => c.t.db.selectFrom('chain_observations').selectAll().where('tx_hash', '=', txHash.toLowerCase()).orderBy('id').execute();
  const payment = (id: string) => c.t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
  const status = async (token: string, id: string) => (await inject(c.t.app, payments.status, { token, body: { payment_id: id } })).data();
  /** Mines until the tick after `blocks` more blocks; the watcher reads each. */
  const advance = async (blocks: number) => {
    await c.anvil.mine(blocks);
    return c.tick();
  };

  it('shows a transfer as confirming with its count, credits it at the depth, and only once', async () => {
    await c.tick();
    const u = await c.user();
    const created = await inject(c.t.app, payments.create, { token: u.token, body: { amount: 25, currency: 'usdtbsc' } });
    const id = created.data().payment_id;
    expect(created.data().payAddress).toBe(u.evmDisplay);
    expect((await status(u.token, id)).status).toBe('waiting');

    const d = await c.deposit('bsc', u.evm, '25');
    await c.tick();
    let p = await payment(id);
    expect(p.status).toBe('confirming');
    expect(p.confirmations).toBe(1);
    expect(JSON.parse((await status(u.token, id)).extra)).toMatchObject({ confirmations_received: 1, required_confirmations: 5 });

    for (let k = 2; k <= 4; k++) {
      await advance(1);
      p = await payment(id);
      expect(p.confirmations).toBe(k);
      expect(p.status).toBe('confirming');
      expect(await c.balance(u.id)).toBe(0n);
    }
    const r = await advance(1); // 5 confirmations: head − b + 1 = 5
    expect(r.credited).toBe(1);
    p = await payment(id);
    expect(p).toMatchObject({ status: 'finished', credited_amount: 25_000_000n, actually_paid: 25_000_000n, tx_hash: d.txHash });
    expect(await c.balance(u.id)).toBe(25_000_000n);
    const [o] = await obs(d.txHash);
    expect(o!.status).toBe('credited');
    const entries = await c.t.db.selectFrom('ledger_entries').select('idempotency_key').where('user_id', '=', u.id).execute();
    expect(entries.map((e) => e.idempotency_key)).toEqual([chainKey('bsc', d.txHash.toLowerCase(), o!.log_index)]);

    await advance(3);
    await c.tick();
    expect(await c.balance(u.id)).toBe(25_000_000n);
    expect((await ledger.getTotals(c.t.db, u.id)).total_deposited).toBe(25_000_000n);
    expect((await ledger.verify(c.t.db)).ok).toBe(true);
  });

  it('credits 18- and 6-decimal amounts exactly, rounding down under a micro-unit', async () => {
    const u = await c.user();
    // 1.234567891234567891 tokens at 18 decimals → 1.234567 USDT; 7.654321 at 6 → 7.654321.
    await c.anvil.mint(c.bsc, u.evm, 1_234_567_891_234_567_891n);
    await c.anvil.mint(c.polygon, u.evm, 7_654_321n);
    await c.anvil.mint(c.bsc, u.evm, usdtRaw('1000000.000001', 18));
    await c.anvil.mine(5);
    await c.tick('bsc');
    await c.tick('polygon');
    expect(await c.balance(u.id)).toBe(1_234_567n + 7_654_321n + 1_000_000_000_001n);
    const rows = await c.t.db.selectFrom('chain_observations').select(['network', 'raw_amount', 'amount']).where('user_id', '=', u.id).orderBy('id').execute();
    expect(rows.map((r) => [r.network, r.raw_amount, r.amount])).toEqual([
      ['bsc', '1234567891234567891', 1_234_567n],
      ['bsc', '1000000000001000000000000', 1_000_000_000_001n],
      ['polygon', '7654321', 7_654_321n],
    ]);
  });

  it('ignores a token of the same symbol at another contract', async () => {
    const u = await c.user();
    const forged = await c.anvil.deployToken(18, 'USDT');
    const m = await c.anvil.mint(forged, u.evm, usdtRaw('500', 18));
    await advance(6);
    expect(await obs(m.txHash)).toEqual([]);
    expect(await c.balance(u.id)).toBe(0n);
  });

  it('orphans a deposit dropped by a reorg under the depth and never credits it', async () => {
    await c.tick();
    const u = await c.user();
    const d = await c.deposit('bsc', u.evm, '40');
    await c.anvil.mine(1);
    await c.tick();
    expect((await obs(d.txHash))[0]!.status).toBe('seen');
    // The two newest blocks are replaced (the deposit was 2 deep, under the depth of 5), without it.
    await c.anvil.reorg(2);
    const r = await c.tick();
    expect(r.orphaned).toBe(1);
    await advance(8);
    const rows = await obs(d.txHash);
    expect(rows.map((o) => o.status)).toEqual(['orphaned']);
    expect(await c.balance(u.id)).toBe(0n);
  });

  it('credits once a deposit that a reorg re-includes in another block', async () => {
    await c.tick();
    const u = await c.user();
    const raw = await c.anvil.signMint(c.bsc, u.evm, usdtRaw('12.5', 18));
    const txHash = await c.anvil.rpc<string>('eth_sendRawTransaction', [raw]);
    await c.anvil.mine(1);
    await c.tick();
    const before = await obs(txHash);
    expect(before).toHaveLength(1);
    // Replace the last 2 blocks; the same signed transaction lands one block later than before.
    await c.anvil.reorg(2, [[raw as `0x${string}`, 1]]);
    await c.tick();
    await advance(6);
    const rows = await obs(txHash);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.status).toBe('orphaned');
    expect(rows[1]!.status).toBe('credited');
    expect(rows[1]!.block_hash).not.toBe(rows[0]!.block_hash);
    expect(await c.balance(u.id)).toBe(12_500_000n);
  });

  it('halts the network on a reorg at or under the credited line, changing no balance, until an admin resumes', async () => {
    await c.tick();
    const u = await c.user();
    await c.deposit('bsc', u.evm, '30');
    await advance(5);
    expect(await c.balance(u.id)).toBe(30_000_000n);
    const before = await ledger.verify(c.t.db);
    // 8 blocks deep: under the credited line (5 confirmations).
    await c.anvil.reorg(8);
    const r = await c.tick();
    expect(r.halted).toBe(true);
    const cursor = await c.t.db.selectFrom('chain_cursors').selectAll().where('network', '=', 'bsc').executeTakeFirstOrThrow();
    expect(cursor.halted).toBe(true);
    expect(cursor.halted_reason).toMatch(/under the credited line/);
    // Nothing is read or credited while halted, whatever arrives.
    const later = await c.deposit('bsc', u.evm, '5');
    await advance(6);
    expect(await obs(later.txHash)).toEqual([]);
    expect(await c.balance(u.id)).toBe(30_000_000n);
    expect((await ledger.verify(c.t.db)).entries).toBe(before.entries);
    // The polygon watcher is another network: it goes on.
    expect((await c.tick('polygon')).halted).toBe(false);
  });
});

describe('deposits with no payment open, late, and under the minimum', () => {
  const c = useChainTest();
  const history = async (token: string) => (await inject(c.t.app, historyContracts.list, { token, query: { type: 'transaction', page: '1' } })).data().data;

  it('credits a deposit with no payment open as its own finished payment, shown with network, tx hash and confirmations', async () => {
    await c.tick();
    const u = await c.user();
    const d = await c.deposit('polygon', u.evm, '15.5');
    await c.anvil.mine(5);
    await c.tick('polygon');
    expect(await c.balance(u.id)).toBe(15_500_000n);
    const [rec] = await history(u.token);
    expect(rec).toMatchObject({ status: 'finished', amount: 15.5 });
    expect(JSON.parse(rec!.extra!)).toMatchObject({
      network: 'Polygon',
      network_code: 'polygon',
      last_transaction_hash: d.txHash,
      explorer_url: `https://polygonscan.com/tx/${d.txHash}`,
      required_confirmations: 5,
    });
    expect(JSON.parse(rec!.extra!).confirmations_received).toBeGreaterThanOrEqual(5);
  });

  it('credits a deposit after the payment window as its own finished payment; the expired one stays expired', async () => {
    await c.tick();
    const u = await c.user();
    const created = await inject(c.t.app, payments.create, { token: u.token, body: { amount: 20, currency: 'usdtbsc' } });
    const id = created.data().payment_id;
    // The window closes (its end moved into the past rather than waiting 300 s), and the expiry job runs.
    await c.t.db
      .updateTable('payments')
      .set({ window_end: new Date(Date.now() - 1000) })
      .where('provider_payment_id', '=', id)
      .execute();
    const { expirePayments } = await import('../payments/jobs');
    await expirePayments(c.t.ctx);
    await c.deposit('bsc', u.evm, '20');
    await c.anvil.mine(5);
    await c.tick();
    expect(await c.balance(u.id)).toBe(20_000_000n);
    const rows = await c.t.db
      .selectFrom('payments')
      .select(['provider_payment_id', 'status', 'credited_amount'])
      .where('user_id', '=', u.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { provider_payment_id: id, status: 'expired', credited_amount: 0n },
      { provider_payment_id: expect.any(String), status: 'finished', credited_amount: 20_000_000n },
    ]);
  });

  it('credits in full what arrives on an open payment, short or over the amount asked', async () => {
    await c.tick();
    const u = await c.user();
    const short = (await inject(c.t.app, payments.create, { token: u.token, body: { amount: 50, currency: 'usdtbsc' } })).data().payment_id;
    await c.deposit('bsc', u.evm, '30');
    await c.anvil.mine(5);
    await c.tick();
    const p = await c.t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', short).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ status: 'partially_paid', credited_amount: 30_000_000n });
    const over = (await inject(c.t.app, payments.create, { token: u.token, body: { amount: 10, currency: 'usdtbsc' } })).data().payment_id;
    await c.deposit('bsc', u.evm, '12.25');
    await c.anvil.mine(5);
    await c.tick();
    const q = await c.t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', over).executeTakeFirstOrThrow();
    expect(q).toMatchObject({ status: 'finished', credited_amount: 12_250_000n, actually_paid: 12_250_000n });
    expect(await c.balance(u.id)).toBe(42_250_000n);
  });

  it('records a deposit under the minimum, shows it as not credited, and credits nothing', async () => {
    await c.tick();
    const u = await c.user();
    const d = await c.deposit('bsc', u.evm, '0.5');
    await c.anvil.mine(5);
    await c.tick();
    expect(await c.balance(u.id)).toBe(0n);
    const o = await c.t.db.selectFrom('chain_observations').selectAll().where('tx_hash', '=', d.txHash).executeTakeFirstOrThrow();
    expect(o.status).toBe('below_minimum');
    const [rec] = await history(u.token);
    expect(rec!.status).toBe('failed');
    expect(JSON.parse(rec!.extra!).not_credited).toMatch(/below the minimum deposit \(0\.5 USDT\): not credited/);
  });
});

/**
 * A tick credits its final transfers as one batch (a fixed number of statements, custody/credit.ts):
 * the outcome must be what crediting them one after the other gives.
 */
describe('a tick’s credits as one batch', () => {
  const c = useChainTest();
  const mails = (userId: bigint) =>
    c.t.db.selectFrom('mail_outbox').select(['kind', 'payload']).where('user_id', '=', userId).where('kind', '=', 'deposit_credited').orderBy('id').execute();

  it('adds up several transfers on one payment, gives unclaimed and held ones their own, in one tick', async () => {
    await c.tick();
    const u = await c.user();
    const other = await c.user();
    const id = (await inject(c.t.app, payments.create, { token: u.token, body: { amount: 30, currency: 'usdtbsc' } })).data().payment_id;
    await c.deposit('bsc', u.evm, '10');
    await c.deposit('bsc', u.evm, '20');
    await c.deposit('bsc', u.evm, '0.5');
    await c.deposit('bsc', other.evm, '7.25');
    await c.tick(); // seen, claimed by the open payment; nothing final yet
    expect(await c.balance(u.id)).toBe(0n);
    await c.anvil.mine(5);
    const r = await c.tick();
    expect(r.credited).toBe(3);

    const p = await c.t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
    expect(p).toMatchObject({ status: 'finished', actually_paid: 30_000_000n, credited_amount: 30_000_000n });
    expect((p.extra as { history: { status: string }[] }).history.map((h) => h.status)).toEqual(['waiting', 'confirming', 'partially_paid', 'finished']);
    const own = await c.t.db
      .selectFrom('payments')
      .select(['user_id', 'status', 'credited_amount', 'needs_review'])
      .where('provider_payment_id', '<>', id)
      .where('user_id', 'in', [u.id, other.id])
      .orderBy('id')
      .execute();
    expect(own).toEqual([
      { user_id: u.id, status: 'failed', credited_amount: 0n, needs_review: true },
      { user_id: other.id, status: 'finished', credited_amount: 7_250_000n, needs_review: false },
    ]);
    expect(await c.balance(u.id)).toBe(30_000_000n);
    expect(await c.balance(other.id)).toBe(7_250_000n);
    expect((await ledger.getTotals(c.t.db, u.id)).total_deposited).toBe(30_000_000n);
    expect((await ledger.getTotals(c.t.db, other.id)).total_deposited).toBe(7_250_000n);
    expect((await mails(u.id)).map((m) => m.payload)).toEqual([
      { amount: '10.00', network: 'BSC (BEP20)' },
      { amount: '20.00', network: 'BSC (BEP20)' },
    ]);
    expect(await mails(other.id)).toHaveLength(1);
    const statuses = await c.t.db.selectFrom('chain_observations').select('status').where('user_id', 'in', [u.id, other.id]).orderBy('id').execute();
    expect(statuses.map((o) => o.status)).toEqual(['credited', 'credited', 'below_minimum', 'credited']);
    expect((await ledger.verify(c.t.db)).ok).toBe(true);
  });

  it('credits once two observations of one transfer in the same batch (the second is a duplicate), and one ledger key once', async () => {
    const u = await c.user();
    const d = await c.deposit('bsc', u.evm, '9');
    await c.anvil.mine(1);
    await c.tick();
    const [seen] = await c.t.db.selectFrom('chain_observations').selectAll().where('tx_hash', '=', d.txHash.toLowerCase()).execute();
    // What only a reorg an admin resumed from leaves: the same transfer seen again in another
    // block (at another log index), and a log answered under another block hash with its key.
    const row = seen!;
    const copy = (over: { block_hash: string; log_index?: number; raw_amount?: string }) => ({
      network: row.network,
      block_number: row.block_number,
      tx_hash: row.tx_hash,
      log_index: row.log_index,
      token: row.token,
      from_address: row.from_address,
      to_address: row.to_address,
      user_id: row.user_id,
      raw_amount: row.raw_amount,
      amount: row.amount,
      ...over,
    });
    const copies = await c.t.db
      .insertInto('chain_observations')
      .values([
        copy({ block_hash: `0x${'a'.repeat(64)}`, log_index: row.log_index + 100 }),
        copy({ block_hash: `0x${'b'.repeat(64)}`, raw_amount: (BigInt(row.raw_amount) + 1n).toString() }),
      ])
      .returning('id')
      .execute();
    const cursor = await c.t.db.selectFrom('chain_cursors').select('final_height').where('network', '=', 'bsc').executeTakeFirstOrThrow();
    await c.t.db.updateTable('chain_cursors').set({ final_height: row.block_number }).where('network', '=', 'bsc').execute();
    const net = custodyRuntime(c.t.ctx).networks.get('bsc')!.config;
    const out = await creditBatch(c.t.ctx, net, [row.id, ...copies.map((x) => x.id)], row.block_number + 5n);
    await c.t.db.updateTable('chain_cursors').set({ final_height: cursor.final_height }).where('network', '=', 'bsc').execute();
    expect(out).toEqual(['credited', 'duplicate', 'duplicate']);
    expect(await c.balance(u.id)).toBe(9_000_000n);
    const notes = await c.t.db
      .selectFrom('chain_observations')
      .select(['status', 'note'])
      .where(
        'id',
        'in',
        copies.map((x) => x.id),
      )
      .orderBy('id')
      .execute();
    expect(notes).toEqual([
      { status: 'orphaned', note: `transaction already credited as observation ${row.id}` },
      { status: 'orphaned', note: 'ledger key already posted' },
    ]);
    expect((await ledger.verify(c.t.db)).ok).toBe(true);
  });
});

/**
 * CHAIN_BSC_FINALITY / CHAIN_POLYGON_FINALITY=finalized: the credited line is also under the node's
 * `finalized` block. anvil answers `finalized` as head − 64, the way a proof-of-stake node lags it.
 */
describe('the chain watcher under the node’s finalized block (anvil: head − 64)', () => {
  const c = useChainTest({ CHAIN_BSC_FINALITY: 'finalized', CHAIN_POLYGON_FINALITY: 'finalized' });
  const cursor = (network: 'bsc' | 'polygon') => c.t.db.selectFrom('chain_cursors').selectAll().where('network', '=', network).executeTakeFirstOrThrow();

  it.each(['bsc', 'polygon'] as const)('%s: deep enough is not final until the finalized block passes the transfer', async (network) => {
    const u = await c.user();
    const d = await c.deposit(network, u.evm, '30');
    await c.anvil.mine(10);
    let r = await c.tick(network);
    // 11 confirmations (depth 5 met), but the node's finalized block is still below the transfer.
    expect(r.credited).toBe(0);
    expect(await c.balance(u.id)).toBe(0n);
    // viem keeps a block number for 4 s unless told not to.
    const head = await c.anvil.publicClient.getBlockNumber({ cacheTime: 0 });
    expect((await cursor(network)).finalized_tag).toBe(head > 64n ? head - 64n : 0n);
    expect((await cursor(network)).final_height).toBeLessThan(d.blockNumber);

    await c.anvil.mine(Number(d.blockNumber + 64n - head));
    r = await c.tick(network);
    expect(r.credited).toBe(1);
    expect(await c.balance(u.id)).toBe(30_000_000n);
    expect((await cursor(network)).final_height).toBeGreaterThanOrEqual(d.blockNumber);
  });

  it('credits nothing from a node that has no finalized block, and says so', async () => {
    const u = await c.user();
    await c.deposit('bsc', u.evm, '12');
    await c.anvil.mine(80);
    const rt = configureCustody(c.t.ctx, {});
    const real = rt.networks.get('bsc')!.client;
    configureCustody(c.t.ctx, { clients: { bsc: { ...real, finalizedHeight: async () => null } } });
    try {
      const r = await c.tick('bsc');
      expect(r.stopped).toBe('no_finalized');
      expect(await c.balance(u.id)).toBe(0n);
      expect((await cursor('bsc')).finalized_tag).toBeNull();
    } finally {
      configureCustody(c.t.ctx, { clients: { bsc: real } });
    }
    expect((await c.tick('bsc')).credited).toBe(1);
    expect(await c.balance(u.id)).toBe(12_000_000n);
  });
});
