import { createHash, timingSafeEqual } from 'node:crypto';
import { CUSTODY_NETWORKS, explorerTxUrl, microToNumber } from '@app/core';
import type { TSignerPayout, TSignerReport } from '@app/core/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import { withTx } from '../../db/tx';
import { AppError } from '../../lib/errors';
import { sql } from 'kysely';
import { addressHex, microOf } from '../custody/service';
import { queueMail, usdtText } from '../mail/service';
import { processWithdrawal, type OnProcessed } from '../withdrawals/service';
import { CUSTODY_NETWORK_OF, signerPays } from './policy';
import '../withdrawals/table';
import '../custody/table';

/** The signer's token, checked against the hash the server keeps (in constant time). */
export function isSignerToken(ctx: AppContext, token: string): boolean {
  const want = ctx.config.payments.payouts.signerTokenHash;
  if (!want || !token) return false;
  const got = createHash('sha256').update(token).digest();
  return timingSafeEqual(got, Buffer.from(want, 'hex'));
}

const explorerOf = (network: string, hash: string) => {
  const n = CUSTODY_NETWORKS.find((x) => x.network === CUSTODY_NETWORK_OF[network as keyof typeof CUSTODY_NETWORK_OF]);
  return n ? `${n.explorerTx}${hash}` : '';
};

/**
 * Hands a pending withdrawal to the signer (PAYOUTS=signer). The money stays in withdrawals
 * payable; only chain evidence completes it, and a rejection is still possible until it is sent.
 */
export async function approveWithdrawal(ctx: AppContext, id: bigint, opts: { adminId: bigint; onDone?: OnProcessed }) {
  if (ctx.config.payments.payouts.mode !== 'signer') throw new AppError('CONFLICT', 'Payouts are manual: mark it paid with its transaction hash');
  return processWithdrawal(ctx.db, id, ['pending'], opts.onDone, async (tx, w) => {
    if (!signerPays(ctx.config, w.network)) throw new AppError('CONFLICT', `The signer does not pay on ${w.network}: mark it paid with its transaction hash`);
    const after = await tx
      .updateTable('withdrawals')
      .set({ status: 'approved', approved_by: opts.adminId, approved_at: new Date(), payout_note: null })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await queueMail(tx, w.user_id, 'withdrawal_approved', { receive: usdtText(BigInt(w.receive_amount)), network: w.network, address: w.wallet_address });
    return after;
  });
}

/** Approved withdrawals to pay and sent ones to watch, oldest first (the signer's queue). */
export async function signerQueue(ctx: AppContext): Promise<TSignerPayout[]> {
  const rows = await ctx.db
    .selectFrom('withdrawals')
    .select(['id', 'network', 'wallet_address', 'receive_amount', 'status', 'payout_nonce', 'tx_hash'])
    .where('status', 'in', ['approved', 'sent'])
    .orderBy('id')
    .limit(500)
    .execute();
  const out: TSignerPayout[] = [];
  const payable = rows.filter((r) => signerPays(ctx.config, r.network));
  const toHex = (r: (typeof rows)[number]) => (r.network === 'TRON' ? addressHex('tron', r.wallet_address) : r.wallet_address.toLowerCase());
  const targets = payable.map(toHex).filter((a): a is string => a !== null);
  const ours = new Set(
    targets.length ? (await ctx.db.selectFrom('custody_addresses').select('address').where('address', 'in', targets).execute()).map((a) => a.address) : [],
  );
  for (const r of payable) {
    const to = toHex(r);
    if (!to) continue;
    out.push({
      id: String(r.id),
      network: CUSTODY_NETWORK_OF[r.network],
      to,
      amount_micro: String(r.receive_amount),
      status: r.status as 'approved' | 'sent',
      nonce: r.payout_nonce === null ? null : String(r.payout_nonce),
      tx_hash: r.tx_hash,
      ours: ours.has(to),
    });
  }
  return out;
}

/**
 * What the signer did with one payout. The server accepts a report only for the nonce it has on
 * record: `sent` moves an approved payout to sent with its nonce, or replaces the hash under that
 * same nonce (a stuck transaction re-priced); `failed` (reverted, or its nonce taken) sends it back
 * to approved with the reason; `held` notes a limit on an approved one. Anything else is a conflict.
 */
export async function applySignerReport(ctx: AppContext, log: FastifyBaseLogger, id: bigint, report: TSignerReport): Promise<{ status: 'approved' | 'sent' }> {
  return withTx(ctx.db, async (tx) => {
    const w = await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    if (!w || !signerPays(ctx.config, w.network)) throw new AppError('NOT_FOUND', 'Withdrawal not found');
    const onRecord = w.payout_nonce === null ? null : String(w.payout_nonce);
    if (report.state === 'held') {
      if (w.status !== 'approved') throw new AppError('CONFLICT', `A ${w.status} withdrawal cannot be held`);
      await tx
        .updateTable('withdrawals')
        .set({ payout_note: `Held by the signer: ${report.reason}` })
        .where('id', '=', id)
        .execute();
      log.warn({ withdrawal: String(id), reason: report.reason }, 'payout held by the signer');
      return { status: 'approved' };
    }
    const hash = report.tx_hash.toLowerCase();
    if (report.state === 'sent') {
      if (w.status === 'approved') {
        await tx
          .updateTable('withdrawals')
          .set({ status: 'sent', payout_nonce: BigInt(report.nonce), tx_hash: hash, sent_at: new Date(), payout_note: null })
          .where('id', '=', id)
          .execute();
        await queueMail(tx, w.user_id, 'withdrawal_sent', {
          receive: usdtText(BigInt(w.receive_amount)),
          network: w.network,
          tx_hash: hash,
          explorer: explorerOf(w.network, hash),
        });
        log.info({ withdrawal: String(id), nonce: report.nonce, tx: hash }, 'payout sent');
        return { status: 'sent' };
      }
      if (w.status === 'sent' && onRecord === report.nonce) {
        if (w.tx_hash !== hash) {
          await tx.updateTable('withdrawals').set({ tx_hash: hash }).where('id', '=', id).execute();
          log.info({ withdrawal: String(id), nonce: report.nonce, tx: hash, replaced: w.tx_hash }, 'payout replaced under its nonce');
        }
        return { status: 'sent' };
      }
      throw new AppError(
        'CONFLICT',
        w.status === 'sent' ? `Nonce ${report.nonce} is not the one on record (${onRecord})` : `A ${w.status} withdrawal cannot be sent`,
      );
    }
    if (w.status !== 'sent' || onRecord !== report.nonce) throw new AppError('CONFLICT', `Nonce ${report.nonce} is not the one on record`);
    await tx
      .updateTable('withdrawals')
      .set({ status: 'approved', payout_nonce: null, tx_hash: null, sent_at: null, payout_note: `Transaction ${hash} failed: ${report.reason}` })
      .where('id', '=', id)
      .execute();
    log.warn({ withdrawal: String(id), nonce: report.nonce, tx: hash, reason: report.reason }, 'payout failed: approved again');
    return { status: 'approved' };
  });
}

/** The signer's last contact and the limits it reports (the operator view reads them). */
export async function recordSignerContact(db: DB, report: { limits: unknown; hot: unknown }): Promise<void> {
  const values = { last_contact_at: new Date(), limits: JSON.stringify(report.limits), hot: JSON.stringify(report.hot) };
  await db
    .insertInto('signer_contacts')
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

// What the admin console uses of payouts: whether the signer pays a network, and the manual
// payout's chain evidence.
export { CUSTODY_NETWORK_OF, signerPays, type WithdrawalNetwork } from './policy';
export { checkManualPayout } from './manual-evidence';

const microNumber = (text: string) => microToNumber(BigInt(text));
const COIN: Record<string, string> = { bsc: 'BNB', polygon: 'POL', tron: 'TRX' };
/** A native balance in wei as the coin's amount with 6 decimals ("0.012345 BNB"). */
const coinText = (network: string, wei: bigint) => {
  const micro = wei / 10n ** 12n;
  return `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, '0')} ${COIN[network] ?? ''}`.trim();
};

/** The operator's payout view: the queue by state, and the signer's last report (never a node read). */
export async function payoutView(ctx: AppContext) {
  const counts = await ctx.db
    .selectFrom('withdrawals')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('status', '=', 'approved').as('approved'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'approved').filterWhere('payout_note', 'like', 'Held by the signer:%').as('held'),
      eb.fn.countAll<string>().filterWhere('status', '=', 'sent').as('sent'),
    ])
    .where('status', 'in', ['approved', 'sent'])
    .executeTakeFirstOrThrow();
  const contact = await ctx.db.selectFrom('signer_contacts').selectAll().where('id', '=', 1).executeTakeFirst();
  const limits = (contact?.limits ?? []) as { network: string; used_micro: string; limit_micro: string; max_payout_micro: string }[];
  const hot = (contact?.hot ?? []) as { network: string; address: string; token_micro: string; gas_wei: string }[];
  return {
    mode: ctx.config.payments.payouts.mode,
    reconciliation: ctx.config.payments.payouts.mode === 'signer' ? await payoutReconciliation(ctx, hot) : [],
    queue: { approved: Number(counts.approved), held: Number(counts.held), sent: Number(counts.sent) },
    sweeps: await recentSweeps(ctx),
    signer: contact
      ? {
          last_contact_at: new Date(contact.last_contact_at).toISOString(),
          limits: limits.map((l) => ({
            network: l.network,
            used: microNumber(l.used_micro),
            limit: microNumber(l.limit_micro),
            max_payout: microNumber(l.max_payout_micro),
          })),
          // The coin as text (18 decimals do not fit a JS number exactly), cut to 6 decimals.
          hot: hot.map((h) => ({
            network: h.network,
            address: h.address,
            token: microNumber(h.token_micro),
            gas: coinText(h.network, BigInt(h.gas_wei)),
          })),
        }
      : null,
  };
}

/** How many sweeps the operator's view lists: the newest; the total says how many more there are. */
export const SWEEPS_SHOWN = 20;

/**
 * The newest recorded sweeps with their explorer links. The amount is the token's raw amount in
 * micro-units by the network's configured decimals; a sweep of a network no longer configured has
 * no decimals to read it by, and is counted but not listed.
 */
async function recentSweeps(ctx: AppContext) {
  const decimals = new Map<string, number>(ctx.config.payments.custody.networks.map((n) => [n.network, n.decimals]));
  const total = await ctx.db
    .selectFrom('custody_sweeps')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await ctx.db.selectFrom('custody_sweeps').selectAll().orderBy('id', 'desc').limit(SWEEPS_SHOWN).execute();
  const items = [];
  for (const r of rows) {
    const d = decimals.get(r.network);
    if (d === undefined) continue;
    items.push({
      id: String(r.id),
      network: r.network,
      address: r.address,
      amount: microToNumber(microOf(BigInt(r.amount_raw), d)),
      destination: r.destination,
      gas_tx: r.gas_tx,
      gas_explorer_url: r.gas_tx ? explorerTxUrl(r.network, r.gas_tx) : null,
      token_tx: r.token_tx,
      token_explorer_url: explorerTxUrl(r.network, r.token_tx),
      block: Number(r.block_number),
      recorded_at: new Date(r.created_at).toISOString(),
    });
  }
  return { total: Number(total.n), shown: SWEEPS_SHOWN, items };
}

/**
 * Per network (custody.md section 6): token on the deposit addresses (the balances job's last read)
 * + the hot wallet (the signer's last report) + swept to cold = credited deposits − withdrawals the
 * signer paid (completed after approval). Money the operator moves into the hot wallet from cold
 * storage shows as a difference: note refills in the books.
 */
async function payoutReconciliation(ctx: AppContext, hot: { network: string; token_micro: string }[]) {
  const out = [];
  for (const n of ctx.config.payments.custody.networks) {
    // Tron's books balance here once the signer pays and sweeps it (CUSTODY_HOT_TRON_ADDRESS).
    if (n.family !== 'evm' && !signerPays(ctx.config, 'TRON')) continue;
    const onChain = await sql<{ raw: string | null }>`select sum(balance) as raw from custody_balances where network = ${n.network}`.execute(ctx.db);
    const swept = await sql<{ cold: string | null; hot: string | null }>`
      select sum(amount_raw) filter (where destination = 'cold') as cold, sum(amount_raw) filter (where destination = 'hot') as hot
      from custody_sweeps where network = ${n.network}`.execute(ctx.db);
    const credited = await sql<{ micro: string | null }>`
      select sum(amount) as micro from chain_observations where network = ${n.network} and status = 'credited'`.execute(ctx.db);
    const paid = await sql<{ micro: string | null }>`
      select sum(receive_amount) as micro from withdrawals
      where status = 'completed' and approved_at is not null and network = ${n.network.toUpperCase()}`.execute(ctx.db);
    const micro = (raw: string | null | undefined) => microOf(BigInt(raw ?? 0), n.decimals);
    const h = hot.find((x) => x.network === n.network);
    const left = micro(onChain.rows[0]?.raw) + BigInt(h?.token_micro ?? 0) + micro(swept.rows[0]?.cold);
    const right = BigInt(credited.rows[0]?.micro ?? 0) - BigInt(paid.rows[0]?.micro ?? 0);
    out.push({
      network: n.network,
      on_deposit_addresses: microToNumber(micro(onChain.rows[0]?.raw)),
      hot: h ? microToNumber(BigInt(h.token_micro)) : null,
      swept_to_cold: microToNumber(micro(swept.rows[0]?.cold)),
      swept_to_hot: microToNumber(micro(swept.rows[0]?.hot)),
      credited: microToNumber(BigInt(credited.rows[0]?.micro ?? 0)),
      paid_out: microToNumber(BigInt(paid.rows[0]?.micro ?? 0)),
      difference: microToNumber(left - right),
      flagged: h === undefined || left !== right,
    });
  }
  return out;
}
