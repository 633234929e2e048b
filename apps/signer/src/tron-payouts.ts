import type { TSignerPayout } from '@app/core/contracts';
import type { SignerConfig, SignerTron } from './config';
import { rawOfMicro } from './chain';
import { claimBeforeBroadcast, SimulatedCrash, type CrashPoint, type Log, type TronPayouts } from './payouts';
import type { ServerApi } from './server-api';
import type { Store } from './store';
import { signTronTx, tronBase58Of, tronHexOf, TronNode, type TronTx } from './tron';

/** Tron's solidity node: a block is solidified (final) with 19 confirmations. */
export const TRON_SOLIDIFICATION_DEPTH = 19;

interface Slot {
  id: string;
  nonce: bigint;
  state: 'live' | 'mined' | 'dead';
}
interface Stored {
  tx: TronTx;
  expiresAt: number;
}

const utcDayStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const usd = (micro: bigint) => (Number(micro) / 1e6).toFixed(2);

/**
 * Tron payouts (custody.md section 6, "Never twice"). Tron has no account nonce: a transaction
 * carries an expiration, and once that has passed it can never be included. So:
 * - the signed transaction (txID, the node's JSON with the signature, expiration) is stored before
 *   it is broadcast; after a crash the same transaction is broadcast again;
 * - a new transaction for a withdrawal only once the old one is provably dead: the solidified block
 *   (19 deep, final) is already past its expiration, so every block that could hold it is final, and
 *   the node knows no block with it. Or it was mined and failed (REVERT, OUT_OF_ENERGY, …);
 * - the "nonce" the server keeps on record for a Tron payout is the signer's attempt number on Tron:
 *   1, 2, … across all Tron transactions it builds (not per withdrawal: the server keeps a network's
 *   sent nonces unique), stored in the slot; the tx hash is the txID (64 hex, no 0x, as Tron shows it).
 */
export class TronPayer implements TronPayouts {
  crashAt: CrashPoint | null = null;
  private readonly held = new Map<string, string>();
  readonly node: TronNode;

  constructor(
    private readonly config: SignerConfig,
    private readonly tron: SignerTron,
    private readonly store: Store,
    private readonly api: ServerApi,
    private readonly hot: { privateKey: Uint8Array; address: string },
    private readonly own: Set<string>,
    private readonly log: Log,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.node = new TronNode(tron.url);
  }

  async one(p: TSignerPayout, done: Record<string, number>): Promise<void> {
    const slot = await this.slotOf(p.id);
    if (slot) return this.follow(p, slot, done);
    if (p.status === 'sent') {
      this.log.error({ withdrawal: p.id, nonce: p.nonce, tx: p.tx_hash }, 'server says sent, but this signer has no transaction for it: not signing');
      return;
    }
    const reason = await this.refusal(p);
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
    const unsigned = await this.node.buildTransfer({
      owner: this.hot.address,
      token: this.tron.token,
      to: tronHexOf(p.to),
      raw: rawOfMicro(BigInt(p.amount_micro), this.tron.decimals),
      feeLimit: this.tron.feeLimitSun,
    });
    const tx = signTronTx(unsigned, this.hot.privateKey);
    const { slotId, nonce } = await this.store.transaction(async (sql) => {
      const counted = await sql.query<{ next: string }>(`select next::text as next from nonces where network = 'tron' for update`);
      const used = await sql.query<{ n: string | null }>(`select (max(nonce) + 1)::text as n from slots where network = 'tron'`);
      let nonce = 1n;
      for (const c of [counted[0]?.next, used[0]?.n]) if (c != null && BigInt(c) > nonce) nonce = BigInt(c);
      await sql.query(`insert into nonces (network, next) values ('tron', $1) on conflict (network) do update set next = excluded.next`, [String(nonce + 1n)]);
      const [row] = await sql.query<{ id: string }>(
        `insert into slots (withdrawal_id, network, nonce, amount_micro, to_address) values ($1, 'tron', $2, $3, $4) returning id::text as id`,
        [p.id, String(nonce), p.amount_micro, p.to],
      );
      await sql.query('insert into signed_txs (hash, slot_id, raw, gas_price, expires_at) values ($1, $2, $3, $4, $5)', [
        tx.txID,
        row!.id,
        JSON.stringify(tx),
        String(this.tron.feeLimitSun),
        String(tx.raw_data.expiration),
      ]);
      return { slotId: row!.id, nonce };
    });
    done.signed!++;
    this.log.info({ withdrawal: p.id, network: 'tron', nonce: String(nonce), tx: tx.txID, expires: tx.raw_data.expiration }, 'payout signed');
    if (this.crashAt === 'after-sign') throw new SimulatedCrash('after-sign');
    if (!(await this.claim(p, slotId, nonce, tx.txID))) return;
    await this.send(slotId, tx);
    if (this.crashAt === 'after-broadcast') throw new SimulatedCrash('after-broadcast');
  }

  private claim(p: TSignerPayout, slotId: string, nonce: bigint, txID: string): Promise<boolean> {
    return claimBeforeBroadcast({ api: this.api, store: this.store, log: this.log }, p, slotId, nonce, txID);
  }

  /** A withdrawal with a transaction: its fate on chain; a new one only when it is provably dead. */
  private async follow(p: TSignerPayout, slot: Slot, done: Record<string, number>): Promise<void> {
    const { tx, expiresAt } = (await this.txOf(slot.id))!;
    const reportSent = async () => {
      if (p.status === 'approved' || p.tx_hash?.toLowerCase() !== tx.txID)
        await this.api.report(p.id, { state: 'sent', nonce: String(slot.nonce), tx_hash: tx.txID });
    };
    const info = await this.node.txInfo(tx.txID);
    if (info) {
      if (info.receipt?.result === 'SUCCESS' && info.result !== 'FAILED') {
        if (slot.state !== 'mined') await this.store.query(`update slots set state = 'mined' where id = $1`, [slot.id]);
        await reportSent();
        return;
      }
      await this.kill(p, slot, tx.txID, `the transaction failed on chain (${info.receipt?.result ?? info.result ?? 'no result'})`);
      done.dead!++;
      return;
    }
    if (slot.state === 'mined') return; // mined before: gone only while a block is replaced; wait for it
    // Read the solidified block before asking for the transaction once more: a transaction included
    // up to that block is then seen, and nothing after it can be included once it is past the expiration.
    const solid = await this.node.solidified();
    if (solid.timestamp > expiresAt) {
      if (await this.node.txInfo(tx.txID)) return; // included after all: the next pass follows it
      await this.kill(p, slot, tx.txID, `it expired and is in no block up to its expiration plus ${TRON_SOLIDIFICATION_DEPTH} blocks`);
      done.dead!++;
      return;
    }
    // Signed before a crash and never claimed: the server is asked first, as for a new payout, and
    // only while it can still be included (past its expiration it waits to be declared dead).
    if (p.status === 'approved') {
      if ((await this.node.head()).timestamp >= expiresAt) return;
      if (!(await this.claim(p, slot.id, slot.nonce, tx.txID))) return;
    }
    const sent = await this.send(slot.id, tx);
    if (sent === 'sent') {
      done.rebroadcast!++;
      await reportSent();
    }
    // 'expired': too late to be included; dead once its expiration is solidified (a later pass).
  }

  private async kill(p: TSignerPayout, slot: Slot, txID: string, reason: string): Promise<void> {
    await this.store.query(`update slots set state = 'dead', dead_reason = $2 where id = $1`, [slot.id, reason]);
    this.log.warn({ withdrawal: p.id, nonce: String(slot.nonce), tx: txID, reason }, 'payout transaction dead');
    if (p.status === 'sent' && p.nonce === String(slot.nonce))
      await this.api.report(p.id, { state: 'failed', nonce: String(slot.nonce), tx_hash: txID, reason });
  }

  private async send(slotId: string, tx: TronTx): Promise<'sent' | 'expired'> {
    const out = await this.node.broadcast(tx);
    if (out === 'sent')
      await this.store.query('update signed_txs set broadcast_at = coalesce(broadcast_at, now()) where hash = $1 and slot_id = $2', [tx.txID, slotId]);
    return out;
  }

  private async refusal(p: TSignerPayout): Promise<string | null> {
    const amount = BigInt(p.amount_micro);
    if (p.ours || this.own.has(p.to.toLowerCase())) return 'the destination is one of our own addresses';
    if (amount > this.config.maxPayoutMicro) return `over the signer's limit of ${usd(this.config.maxPayoutMicro)} USD per payout`;
    const used = await this.usedToday();
    if (used + amount > this.config.dailyLimitMicro)
      return `over the signer's daily limit on tron (${usd(used)} of ${usd(this.config.dailyLimitMicro)} USD used today)`;
    const [trx, token] = await Promise.all([this.node.trxBalance(this.hot.address), this.node.tokenBalance(this.tron.token, this.hot.address)]);
    if (trx < BigInt(this.tron.feeLimitSun)) return 'the hot wallet holds less TRX than one payout may burn (SIGNER_TRON_FEE_LIMIT_TRX)';
    const inFlight = await this.store.query<{ s: string | null }>(`select sum(amount_micro)::text as s from slots where network = 'tron' and state = 'live'`);
    if (token < rawOfMicro(amount + BigInt(inFlight[0]?.s ?? '0'), this.tron.decimals)) return 'the hot wallet does not hold enough USDT: refill it';
    return null;
  }

  async usedToday(): Promise<bigint> {
    const rows = await this.store.query<{ s: string | null }>(
      `select sum(amount_micro)::text as s from slots where network = 'tron' and state <> 'dead' and created_at >= $1`,
      [utcDayStart(this.now()).toISOString()],
    );
    return BigInt(rows[0]?.s ?? '0');
  }

  async hotReport() {
    const [trx, token] = await Promise.all([this.node.trxBalance(this.hot.address), this.node.tokenBalance(this.tron.token, this.hot.address)]);
    const d = this.tron.decimals;
    return {
      network: 'tron' as const,
      address: tronBase58Of(this.hot.address),
      token_micro: String(d >= 6 ? token / 10n ** BigInt(d - 6) : token * 10n ** BigInt(6 - d)),
      gas_wei: String(trx),
    };
  }

  private async slotOf(withdrawalId: string): Promise<Slot | null> {
    const rows = await this.store.query<{ id: string; nonce: string; state: Slot['state'] }>(
      `select id::text as id, nonce::text as nonce, state from slots where withdrawal_id = $1 and state in ('live', 'mined')`,
      [withdrawalId],
    );
    const r = rows[0];
    return r ? { id: r.id, nonce: BigInt(r.nonce), state: r.state } : null;
  }

  private async txOf(slotId: string): Promise<Stored | null> {
    const rows = await this.store.query<{ raw: string; expires_at: string }>('select raw, expires_at::text as expires_at from signed_txs where slot_id = $1', [
      slotId,
    ]);
    const r = rows[0];
    return r ? { tx: JSON.parse(r.raw) as TronTx, expiresAt: Number(r.expires_at) } : null;
  }
}
