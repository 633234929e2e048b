import type { TSignerPayout } from '@app/core/contracts';
import type { Hex } from 'viem';
import type { SignerConfig } from './config';
import { broadcast, claimHotNonce, hotBalances, rawOfMicro, receiptOf, signTransfer, type EvmNetwork } from './chain';
import { ServerRefused, type ServerApi } from './server-api';
import type { Sql, Store } from './store';

/** Where a test stops the signer as a kill -9 would: the process is gone, its database stays. */
export type CrashPoint = 'after-sign' | 'after-broadcast';
export class SimulatedCrash extends Error {}

export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface Slot {
  id: string;
  nonce: bigint;
  state: 'live' | 'mined' | 'dead';
}
interface SignedTx {
  hash: Hex;
  raw: Hex;
  gasPrice: bigint;
  createdAt: Date;
}

/** The Tron side of the loop (tron-payouts.ts), when the signer has CHAIN_TRON_API_URL. */
export interface TronPayouts {
  crashAt: CrashPoint | null;
  one(p: TSignerPayout, done: Record<string, number>): Promise<void>;
  usedToday(): Promise<bigint>;
  hotReport(): Promise<{ network: 'tron'; address: string; token_micro: string; gas_wei: string }>;
}

const utcDayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/**
 * The signer's payout loop (custody.md section 6, "Never twice"):
 * - a payout's transaction is stored (slot with its nonce, signed bytes, hash) in one transaction of
 *   the signer's database before it is broadcast; after a crash the same bytes are broadcast again;
 * - a withdrawal has at most one live nonce; a stuck transaction is replaced under that nonce at a
 *   higher fee, so only one of them can be mined;
 * - a new nonce only once the old transaction is provably dead: mined and reverted, or its nonce
 *   consumed with none of the slot's transactions mined;
 * - the server hears `sent` with the nonce on record, `failed` for a dead one, `held` over a limit.
 */
export class PayoutSigner {
  private readonly held = new Map<string, string>();
  private crash: CrashPoint | null = null;
  /** Tron withdrawals go to it (a payout of a network the signer has not configured waits) */
  tron: TronPayouts | null = null;

  get crashAt(): CrashPoint | null {
    return this.crash;
  }
  set crashAt(point: CrashPoint | null) {
    this.crash = point;
    if (this.tron) this.tron.crashAt = point;
  }

  constructor(
    private readonly config: SignerConfig,
    private readonly store: Store,
    private readonly api: ServerApi,
    private readonly networks: Map<string, EvmNetwork>,
    /** our own addresses (hot and the first deposit addresses), lowercase hex: never paid */
    private readonly own: Set<string>,
    private readonly log: Log,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One pass over the server's queue; returns what it did, for tests and logs. */
  async tick(): Promise<{ signed: number; rebroadcast: number; replaced: number; dead: number; held: number }> {
    const done = { signed: 0, rebroadcast: 0, replaced: 0, dead: 0, held: 0 };
    const payouts = await this.api.payouts();
    // The server's queue is cut at 500: only a whole queue says what left it.
    if (payouts.length < 500) await this.voidAbandoned(payouts);
    for (const p of payouts) {
      if (p.network === 'tron') {
        if (this.tron) await this.tron.one(p, done);
        continue;
      }
      const net = this.networks.get(p.network);
      if (!net) continue;
      await this.one(net, p, done);
    }
    await this.api.heartbeat({ limits: await this.limitsUsed(), hot: await this.hotReport() });
    return done;
  }

  private async one(net: EvmNetwork, p: TSignerPayout, done: Record<string, number>): Promise<void> {
    const slot = await this.slotOf(p.id);
    if (slot) return this.follow(net, p, slot, done);
    if (p.status === 'sent') {
      // The server has a nonce on record that this signer never signed (a lost database, another
      // signer): never sign again for it; an operator must look.
      this.log.error({ withdrawal: p.id, nonce: p.nonce, tx: p.tx_hash }, 'server says sent, but this signer has no transaction for it: not signing');
      return;
    }
    const reason = await this.refusal(net, p);
    if (reason) {
      if (this.held.get(p.id) !== reason) {
        await this.api.report(p.id, { state: 'held', reason });
        this.held.set(p.id, reason);
        this.log.warn({ withdrawal: p.id, reason }, 'payout held');
      }
      done.held!++;
      return;
    }
    this.held.delete(p.id);
    const gasPrice = await net.client.getGasPrice();
    const { slotId, nonce, tx } = await this.store.transaction(async (sql) => {
      const nonce = await claimHotNonce(sql, net);
      const tx = await signTransfer(net, { nonce, to: p.to, raw: rawOfMicro(BigInt(p.amount_micro), net.config.decimals), gasPrice });
      const [row] = await sql.query<{ id: string }>(
        `insert into slots (withdrawal_id, network, nonce, amount_micro, to_address) values ($1, $2, $3, $4, $5) returning id::text as id`,
        [p.id, net.config.network, String(nonce), p.amount_micro, p.to],
      );
      await sql.query('insert into signed_txs (hash, slot_id, raw, gas_price) values ($1, $2, $3, $4)', [tx.hash, row!.id, tx.raw, String(gasPrice)]);
      return { slotId: row!.id, nonce, tx };
    });
    done.signed!++;
    this.log.info({ withdrawal: p.id, network: net.config.network, nonce: String(nonce), tx: tx.hash }, 'payout signed');
    if (this.crashAt === 'after-sign') throw new SimulatedCrash('after-sign');
    if (!(await this.claim(p, slotId, nonce, tx.hash))) return;
    await this.send(net, slotId, tx.hash, tx.raw);
    if (this.crashAt === 'after-broadcast') throw new SimulatedCrash('after-broadcast');
  }

  private claim(p: TSignerPayout, slotId: string, nonce: bigint, hash: string): Promise<boolean> {
    return claimBeforeBroadcast({ api: this.api, store: this.store, log: this.log }, p, slotId, nonce, hash);
  }

  /**
   * A slot signed but never broadcast whose withdrawal is no longer in the server's queue (rejected
   * while this signer was down between signing and claiming) is void: nothing was sent with it.
   */
  private async voidAbandoned(payouts: TSignerPayout[]): Promise<void> {
    const queued = new Set(payouts.map((p) => p.id));
    const rows = await this.store.query<{ id: string; withdrawal_id: string }>(
      `select s.id::text as id, s.withdrawal_id::text as withdrawal_id from slots s
        where s.state = 'live' and not exists (select 1 from signed_txs t where t.slot_id = s.id and t.broadcast_at is not null)`,
    );
    for (const r of rows) if (!queued.has(r.withdrawal_id)) await voidSlot(this.store, r.id, 'the withdrawal left the queue before its payout was broadcast');
  }

  /** A withdrawal with a slot: find its fate on chain and tell the server; never a second nonce while it can be mined. */
  private async follow(net: EvmNetwork, p: TSignerPayout, slot: Slot, done: Record<string, number>): Promise<void> {
    const txs = await this.txsOf(slot.id);
    for (const tx of txs) {
      const r = await receiptOf(net, tx.hash);
      if (!r) continue;
      if (r.status === 'success') {
        if (slot.state !== 'mined') await this.store.query(`update slots set state = 'mined' where id = $1`, [slot.id]);
        if (p.status === 'approved' || p.tx_hash?.toLowerCase() !== tx.hash)
          await this.api.report(p.id, { state: 'sent', nonce: String(slot.nonce), tx_hash: tx.hash });
        return;
      }
      await this.kill(p, slot, tx.hash, 'the transaction reverted');
      done.dead!++;
      return;
    }
    if (slot.state === 'mined') {
      // Mined before, its receipt gone: a reorg took its block, and a node need not put the
      // transaction back in its pool (anvil does not), so waiting for it could wait for good and hold
      // every later nonce behind it. The same signed bytes are sent again: its nonce is still ours
      // and all of the slot's transactions share it, so at most one of them can be mined.
      await this.send(net, slot.id, txs[txs.length - 1]!.hash, txs[txs.length - 1]!.raw);
      done.rebroadcast!++;
      return;
    }
    const latest = BigInt(await net.client.getTransactionCount({ address: net.hot.address, blockTag: 'latest' }));
    if (latest > slot.nonce) {
      // The nonce is consumed and none of this slot's transactions is mined: another took it. Asked
      // once more, after the count, so a transaction mined in between is not taken for dead.
      for (const tx of txs) if (await receiptOf(net, tx.hash)) return;
      await this.kill(p, slot, txs[0]!.hash, 'its nonce was taken by another transaction');
      done.dead!++;
      return;
    }
    const newest = txs[txs.length - 1]!;
    if (this.now().getTime() - newest.createdAt.getTime() >= this.config.stuckAfterMs) {
      const market = await net.client.getGasPrice();
      const bumped = (newest.gasPrice * 125n) / 100n + 1n;
      const gasPrice = market > bumped ? market : bumped;
      const row = await this.store.query<{ to_address: string; amount_micro: string }>(
        'select to_address, amount_micro::text as amount_micro from slots where id = $1',
        [slot.id],
      );
      const tx = await signTransfer(net, {
        nonce: slot.nonce,
        to: row[0]!.to_address,
        raw: rawOfMicro(BigInt(row[0]!.amount_micro), net.config.decimals),
        gasPrice,
      });
      await this.store.query('insert into signed_txs (hash, slot_id, raw, gas_price) values ($1, $2, $3, $4)', [tx.hash, slot.id, tx.raw, String(gasPrice)]);
      await this.send(net, slot.id, tx.hash, tx.raw);
      await this.api.report(p.id, { state: 'sent', nonce: String(slot.nonce), tx_hash: tx.hash });
      done.replaced!++;
      this.log.warn({ withdrawal: p.id, nonce: String(slot.nonce), tx: tx.hash, replaced: newest.hash }, 'stuck payout replaced under its nonce');
      return;
    }
    // Signed before a crash and never claimed: the server is asked first, as for a new payout.
    if (p.status === 'approved' && !(await this.claim(p, slot.id, slot.nonce, newest.hash))) return;
    await this.send(net, slot.id, newest.hash, newest.raw);
    done.rebroadcast!++;
    if (p.status === 'sent' && p.tx_hash?.toLowerCase() !== newest.hash)
      await this.api.report(p.id, { state: 'sent', nonce: String(slot.nonce), tx_hash: newest.hash });
  }

  private async kill(p: TSignerPayout, slot: Slot, hash: Hex, reason: string): Promise<void> {
    await this.store.query(`update slots set state = 'dead', dead_reason = $2 where id = $1`, [slot.id, reason]);
    this.log.warn({ withdrawal: p.id, nonce: String(slot.nonce), tx: hash, reason }, 'payout transaction dead');
    if (p.status === 'sent') await this.api.report(p.id, { state: 'failed', nonce: String(slot.nonce), tx_hash: hash, reason });
  }

  private async send(net: EvmNetwork, slotId: string, hash: Hex, raw: Hex): Promise<void> {
    await broadcast(net, raw);
    await this.store.query('update signed_txs set broadcast_at = coalesce(broadcast_at, now()) where hash = $1 and slot_id = $2', [hash, slotId]);
  }

  /** Why this payout must wait (the signer's own limits), or null. */
  private async refusal(net: EvmNetwork, p: TSignerPayout): Promise<string | null> {
    const amount = BigInt(p.amount_micro);
    if (p.ours || this.own.has(p.to.toLowerCase())) return 'the destination is one of our own addresses';
    if (amount > this.config.maxPayoutMicro) return `over the signer's limit of ${usd(this.config.maxPayoutMicro)} USD per payout`;
    const used = await this.usedToday(this.store, net.config.network);
    if (used + amount > this.config.dailyLimitMicro)
      return `over the signer's daily limit on ${net.config.network} (${usd(used)} of ${usd(this.config.dailyLimitMicro)} USD used today)`;
    const balances = await hotBalances(net);
    if (balances.gas < this.config.minGasWei) return 'the hot wallet is below its minimum gas balance';
    const raw = rawOfMicro(amount, net.config.decimals);
    const inFlight = await this.inFlightRaw(net);
    if (balances.token < raw + inFlight) return 'the hot wallet does not hold enough USDT: refill it';
    return null;
  }

  private async inFlightRaw(net: EvmNetwork): Promise<bigint> {
    const rows = await this.store.query<{ s: string | null }>(`select sum(amount_micro)::text as s from slots where network = $1 and state = 'live'`, [
      net.config.network,
    ]);
    return rawOfMicro(BigInt(rows[0]?.s ?? '0'), net.config.decimals);
  }

  /** Paid and in flight today (UTC), per network: what the daily limit counts. */
  private async usedToday(sql: Sql, network: string): Promise<bigint> {
    const rows = await sql.query<{ s: string | null }>(
      `select sum(amount_micro)::text as s from slots where network = $1 and state <> 'dead' and created_at >= $2`,
      [network, utcDayStart(this.now()).toISOString()],
    );
    return BigInt(rows[0]?.s ?? '0');
  }

  /** The hot wallet per network, for the operator's view (the server never reads a node for it). */
  async hotReport() {
    const out = [];
    for (const net of this.networks.values()) {
      const b = await hotBalances(net);
      const d = net.config.decimals;
      out.push({
        network: net.config.network,
        address: net.hot.address.toLowerCase(),
        token_micro: String(d >= 6 ? b.token / 10n ** BigInt(d - 6) : b.token * 10n ** BigInt(6 - d)),
        gas_wei: String(b.gas),
      });
    }
    if (this.tron) out.push(await this.tron.hotReport());
    return out;
  }

  async limitsUsed() {
    const out = [];
    for (const net of this.networks.values())
      out.push({
        network: net.config.network,
        used_micro: String(await this.usedToday(this.store, net.config.network)),
        limit_micro: String(this.config.dailyLimitMicro),
        max_payout_micro: String(this.config.maxPayoutMicro),
      });
    if (this.tron)
      out.push({
        network: 'tron' as const,
        used_micro: String(await this.tron.usedToday()),
        limit_micro: String(this.config.dailyLimitMicro),
        max_payout_micro: String(this.config.maxPayoutMicro),
      });
    return out;
  }

  private async slotOf(withdrawalId: string): Promise<Slot | null> {
    const rows = await this.store.query<{ id: string; nonce: string; state: Slot['state'] }>(
      `select id::text as id, nonce::text as nonce, state from slots where withdrawal_id = $1 and state in ('live', 'mined')`,
      [withdrawalId],
    );
    const r = rows[0];
    return r ? { id: r.id, nonce: BigInt(r.nonce), state: r.state } : null;
  }

  private async txsOf(slotId: string): Promise<SignedTx[]> {
    const rows = await this.store.query<{ hash: Hex; raw: Hex; gas_price: string; created_at: Date | string }>(
      'select hash, raw, gas_price::text as gas_price, created_at from signed_txs where slot_id = $1 order by created_at, hash',
      [slotId],
    );
    return rows.map((r) => ({ hash: r.hash, raw: r.raw, gasPrice: BigInt(r.gas_price), createdAt: new Date(r.created_at) }));
  }
}

const usd = (micro: bigint) => (Number(micro) / 1e6).toFixed(2);

/** Marks a slot void, only while nothing signed under it was ever broadcast. */
export async function voidSlot(sql: Sql, slotId: string, reason: string): Promise<void> {
  await sql.query(
    `update slots set state = 'void', dead_reason = $2
      where id = $1 and state = 'live' and not exists (select 1 from signed_txs t where t.slot_id = $1 and t.broadcast_at is not null)`,
    [slotId, reason],
  );
}

/**
 * Claim before broadcast (EVM and Tron): the server records the payout as sent (with its nonce and
 * hash) before any byte of it reaches a node. A refusal (the admin rejected it meanwhile: its money
 * is back with the user) leaves the slot void, never broadcast, its nonce free for the next payout;
 * so a rejection can never race a payment into paying twice.
 */
export async function claimBeforeBroadcast(
  deps: { api: ServerApi; store: Sql; log: Log },
  p: TSignerPayout,
  slotId: string,
  nonce: bigint,
  hash: string,
): Promise<boolean> {
  try {
    await deps.api.report(p.id, { state: 'sent', nonce: String(nonce), tx_hash: hash });
    return true;
  } catch (err) {
    if (!(err instanceof ServerRefused) || (err.status !== 409 && err.status !== 404)) throw err;
    await voidSlot(deps.store, slotId, `refused by the server before broadcast: ${err.message}`);
    deps.log.warn({ withdrawal: p.id, nonce: String(nonce), tx: hash, reason: err.message }, 'payout refused by the server before broadcast: not sent');
    return false;
  }
}
