import type { TCustodyNetwork } from '@app/core';
import type { AppContext } from '../../context';
import { withRetry } from './retry';
import { TRANSFER_TOPIC, type ChainClient, type Receipt } from './rpc/client';
import type { NetworkRuntime, WatchTuning } from './runtime';
import './table';

/**
 * Trust no single node (docs/custody.md): before a final transfer is credited, every endpoint of
 * its network is asked for (a) the block hash at the transfer's height and (b) the transaction's
 * receipt, which must have status 1, be in that very block, and hold the very log at its index
 * (the configured token, the Transfer topic, the same from, to and amount). One endpoint is asked
 * too: the receipt alone defeats a made-up log with a random transaction hash.
 *
 * - confirmed: `quorum` endpoints confirmed it and none that answered contradicted it;
 * - disagree: an endpoint that answered contradicted it (another block hash at the height, no
 *   receipt, a failed one, another log at the index): held for an admin, whatever the quorum;
 * - wait: no contradiction, but too few endpoints answered (unreachable, or lacking the block):
 *   it stays `seen` and is asked again at the next tick.
 */
export type Verdict = { kind: 'confirmed' } | { kind: 'disagree'; why: string } | { kind: 'wait'; why: string };

/** What an observation claims, as stored. */
export interface Claim {
  id: bigint;
  block_number: bigint;
  block_hash: string;
  tx_hash: string;
  log_index: number;
  token: string;
  from_address: string;
  to_address: string;
  raw_amount: string;
}

/** The note of an observation held because the endpoints disagree (health and the admin view find them by it). */
export const DISAGREE_PREFIX = 'endpoints disagree: ';

interface Answer {
  hashes: Map<bigint, string>;
  receipts: Map<string, Receipt | null>;
}

/** One endpoint's blocks and receipts for the claims, in JSON-RPC batches. */
async function ask(client: ChainClient, claims: Claim[]): Promise<Answer> {
  const hashes = await client.blockHashes([...new Set(claims.map((c) => c.block_number))]);
  const txs = [...new Set(claims.map((c) => c.tx_hash))];
  // Tron's transaction ids are stored without 0x; its JSON-RPC takes them with it.
  const res = await client.receipts(txs.map((tx) => (tx.startsWith('0x') ? tx : `0x${tx}`)));
  const receipts = new Map(txs.map((tx, j) => [tx, res[j] ?? null]));
  return { hashes, receipts };
}

const short = (h: string) => `${h.slice(0, 10)}…`;
const topicAddress = (t: string | undefined) => (t && /^0x0{24}[0-9a-fA-F]{40}$/.test(t) ? `0x${t.slice(-40).toLowerCase()}` : null);

/** One endpoint's vote on one claim: agree, contradict (why), or no vote (why). */
function vote(c: Claim, a: Answer, primary: boolean): { agree: true } | { no: string } | { skip: string } {
  const hash = a.hashes.get(c.block_number);
  if (!hash) return { skip: `lacks block ${c.block_number}` };
  // The primary's own chain moved since the credited line was checked: the next tick's fork check meets it.
  if (hash !== c.block_hash) return primary ? { skip: `block ${c.block_number} changed` } : { no: `block ${c.block_number} is ${short(hash)} there` };
  const r = a.receipts.get(c.tx_hash);
  if (!r) return { no: 'no receipt for the transaction' };
  if (r.blockHash !== c.block_hash) return { no: `its receipt is in another block (${short(String(r.blockHash))})` };
  if (r.status !== 'success') return { no: `its receipt has status ${String(r.status)}` };
  const log = r.logs.find((l) => l.logIndex === c.log_index);
  if (!log) return { no: `no log ${c.log_index} in its receipt` };
  const amount = /^0x[0-9a-fA-F]{64}$/.test(log.data) ? BigInt(log.data) : null;
  const topics = log.topics;
  const same =
    log.address.toLowerCase() === c.token &&
    topics.length === 3 &&
    topics[0]?.toLowerCase() === TRANSFER_TOPIC &&
    topicAddress(topics[1]) === c.from_address &&
    topicAddress(topics[2]) === c.to_address &&
    amount === BigInt(c.raw_amount);
  return same ? { agree: true } : { no: `log ${c.log_index} of its receipt is another transfer` };
}

/**
 * Asks every endpoint of the network about the claims (in parallel, each with the watcher's
 * retries) and gives each claim its verdict. An endpoint that fails after its retries gives no vote.
 */
export async function corroborate(n: NetworkRuntime, tuning: WatchTuning, claims: Claim[]): Promise<Map<bigint, Verdict>> {
  const out = new Map<bigint, Verdict>();
  if (!claims.length) return out;
  const answers = await Promise.all(
    n.verifiers.map((v, i) =>
      withRetry(tuning, `${n.labels[i]}: receipts`, () => ask(v, claims)).then(
        (a) => ({ a }),
        (err: unknown) => ({ err: hideUrl(err instanceof Error ? err.message : String(err), n.config.urls[i], n.labels[i] ?? `endpoint ${i + 1}`) }),
      ),
    ),
  );
  const quorum = Math.min(n.config.quorum, n.verifiers.length);
  for (const c of claims) {
    const no: string[] = [];
    const skip: string[] = [];
    let agree = 0;
    answers.forEach((ans, i) => {
      const label = n.labels[i] ?? `endpoint ${i + 1}`;
      if ('err' in ans) return skip.push(`${label}: ${ans.err}`);
      const v = vote(c, ans.a, i === 0);
      if ('agree' in v) agree++;
      else if ('no' in v) no.push(`${label}: ${v.no}`);
      else skip.push(`${label}: ${v.skip}`);
    });
    const what = `transaction ${c.tx_hash} log ${c.log_index} in block ${c.block_number}`;
    if (no.length) out.set(c.id, { kind: 'disagree', why: `${DISAGREE_PREFIX}${what}: ${no.join('; ')} (${agree} of ${answers.length} confirmed it)` });
    else if (agree >= quorum) out.set(c.id, { kind: 'confirmed' });
    else out.set(c.id, { kind: 'wait', why: `${agree} of the ${quorum} endpoints needed confirmed ${what}: ${skip.join('; ')}` });
  }
  return out;
}

/** An endpoint's URL may carry an API key: messages name it by its label. */
function hideUrl(message: string, url: string | undefined, label: string): string {
  return url ? message.split(url).join(label) : message;
}

/**
 * Holds the observations the endpoints disagree on: `held` with the reason, for an admin (the
 * Custody page; dismiss), never credited by the watcher. A payment the transfer had claimed lets go
 * of it (it expires at the end of its window unless another transfer pays it). One warning each.
 */
export async function holdDisputed(ctx: AppContext, network: TCustodyNetwork, disputed: { id: bigint; why: string }[]): Promise<number> {
  let held = 0;
  for (const d of disputed) {
    const row = await ctx.db
      .updateTable('chain_observations')
      .set({ status: 'held', note: d.why.slice(0, 1000), payment_id: null })
      .where('id', '=', d.id)
      .where('status', '=', 'seen')
      .returning(['id', 'user_id', 'tx_hash', 'log_index', 'raw_amount'])
      .executeTakeFirst();
    if (!row) continue;
    held++;
    ctx.log.warn(
      {
        network,
        observationId: String(row.id),
        userId: String(row.user_id),
        txHash: row.tx_hash,
        logIndex: row.log_index,
        rawAmount: row.raw_amount,
        reason: d.why,
      },
      'custody transfer held: the endpoints disagree, waits for an admin',
    );
  }
  return held;
}
