import type { TSignerNetwork, TSweepCandidate, TSweepReport } from '@app/core/contracts';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { addressHex, custodyRuntime } from '../custody/service';
import { payoutEvidence } from './evidence';
import { signerPays } from './policy';
import '../custody/table';
import '../withdrawals/table';

/**
 * The networks the signer sweeps: the EVM networks the server watches with PAYOUTS=signer, and Tron
 * where the signer pays Tron (CUSTODY_HOT_TRON_ADDRESS set): a sweep goes to that hot wallet.
 */
function signerSweepNetworks(ctx: AppContext): TSignerNetwork[] {
  if (ctx.config.payments.payouts.mode !== 'signer') return [];
  return ctx.config.payments.custody.networks.filter((n) => n.family === 'evm' || signerPays(ctx.config, 'TRON')).map((n) => n.network);
}

/**
 * Deposit addresses holding the token, as the balances job last read them (never a node read in
 * the request), largest first: the signer re-reads each balance itself before it sweeps.
 */
export async function sweepCandidates(ctx: AppContext): Promise<TSweepCandidate[]> {
  const networks = signerSweepNetworks(ctx);
  if (!networks.length) return [];
  const rows = await ctx.db
    .selectFrom('custody_balances as b')
    // The address's family is its network's: Tron's index is under m/44'/195'/0'/0, the others' under m/44'/60'/0'/0.
    .innerJoin('custody_addresses as a', (j) =>
      j.onRef('a.address', '=', 'b.address').on(sql<boolean>`a.family = case when b.network = 'tron' then 'tron' else 'evm' end`),
    )
    .select(['b.network', 'b.address', 'a.idx', sql<string>`b.balance::text`.as('balance')])
    .where('b.network', 'in', networks)
    .where(sql<boolean>`b.balance > 0`)
    .orderBy(sql`b.balance`, 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => ({ network: r.network as TSignerNetwork, address: r.address, index: r.idx, balance_raw: r.balance }));
}

/**
 * Records a sweep the signer reports, once the chain shows it: the token transaction final, a
 * Transfer of exactly the amount from our deposit address to the hot wallet or the configured cold
 * one. Until then the report is refused (409) and the signer reports it again later; recorded
 * once (the token transaction is unique). Tron's is final once solidified (the solidity node's
 * word, as for a pasted Tron hash), its txID kept as Tron shows it.
 */
export async function recordSweep(ctx: AppContext, log: FastifyBaseLogger, r: TSweepReport): Promise<{ recorded: boolean }> {
  if (!signerSweepNetworks(ctx).includes(r.network)) throw new AppError('NOT_FOUND', 'The signer does not sweep this network');
  const tron = r.network === 'tron';
  const address = r.address.toLowerCase();
  const ours = await ctx.db
    .selectFrom('custody_addresses')
    .select('idx')
    .where('family', '=', tron ? 'tron' : 'evm')
    .where('address', '=', address)
    .executeTakeFirst();
  if (!ours) throw new AppError('NOT_FOUND', 'Not one of our deposit addresses');
  const payouts = ctx.config.payments.payouts;
  const hotTron = payouts.hot.tron ? addressHex('tron', payouts.hot.tron) : null;
  const coldTron = payouts.coldTron ? addressHex('tron', payouts.coldTron) : null;
  const to = tron ? (r.destination === 'hot' ? hotTron : coldTron) : r.destination === 'hot' ? payouts.hot.evm : payouts.coldEvm;
  if (!to) throw new AppError('CONFLICT', `No cold wallet is configured (${tron ? 'SWEEP_COLD_TRON_ADDRESS' : 'SWEEP_COLD_EVM_ADDRESS'})`);
  const net = custodyRuntime(ctx).networks.get(r.network)!;
  const config = tron ? { ...net.config, finality: 'finalized' as const } : net.config;
  const ev = await payoutEvidence(net.client, config, r.token_tx, { from: address, to, raw: BigInt(r.amount_raw) });
  if (ev.state !== 'final') {
    const why = ev.state === 'waiting' ? `not final yet (${ev.confirmations} of ${ev.required})` : ev.state === 'mismatch' ? ev.reason : ev.state;
    throw new AppError('CONFLICT', `Sweep ${r.token_tx} not recorded: ${why}`);
  }
  const inserted = await ctx.db
    .insertInto('custody_sweeps')
    .values({
      network: r.network,
      address,
      amount_raw: r.amount_raw,
      destination: r.destination,
      gas_tx: r.gas_tx?.toLowerCase() ?? null,
      token_tx: r.token_tx.toLowerCase(),
      block_number: ev.blockNumber,
    })
    .onConflict((oc) => oc.column('token_tx').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) log.info({ network: r.network, address, amount_raw: r.amount_raw, destination: r.destination, tx: r.token_tx }, 'sweep recorded');
  return { recorded: inserted !== undefined };
}
