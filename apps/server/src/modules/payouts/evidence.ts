import { TRANSFER_TOPIC, type ChainClient, type NetworkConfig } from '../custody/service';

/** What the chain says about a payout's transaction (custody.md section 6, "completes it only on chain evidence"). */
export type Evidence =
  | { state: 'final'; blockNumber: bigint }
  /** mined and matching, not final yet (or its block is no longer the node's at that height) */
  | { state: 'waiting'; confirmations: number; required: number }
  /** the node knows no receipt: not mined (yet), or dropped */
  | { state: 'missing' }
  | { state: 'reverted'; final: boolean }
  /** mined and successful, but it is not the payment it should be */
  | { state: 'mismatch'; reason: string };

const word = (hex: string) => `0x${hex.slice(2).toLowerCase().padStart(64, '0')}`;

/**
 * Reads the receipt and checks it is the expected payment: status 1 and a `Transfer` of the
 * configured token to the withdrawal's address for exactly its amount (and from the hot address,
 * when `from` is given), in a block that is still the node's at its height, with the network's
 * confirmations (and under the node's finalized tag with FINALITY=finalized).
 */
export async function payoutEvidence(
  client: ChainClient,
  net: NetworkConfig,
  txHash: string,
  expect: { from?: string | undefined; to: string; raw: bigint },
): Promise<Evidence> {
  // A Tron txID is kept as Tron shows it (64 hex digits, no 0x); the JSON-RPC takes it 0x-prefixed.
  const [receipt] = await client.receipts([txHash.startsWith('0x') ? txHash : `0x${txHash}`]);
  if (!receipt || !receipt.blockNumber || !receipt.blockHash) return { state: 'missing' };
  const blockNumber = BigInt(receipt.blockNumber);
  const head = await client.head();
  const confirmations = Number(head - blockNumber + 1n);
  const canonical = (await client.blockHashes([blockNumber])).get(blockNumber)?.toLowerCase() === receipt.blockHash.toLowerCase();
  let final = canonical && confirmations >= net.confirmations;
  if (final && net.finality === 'finalized') {
    const finalized = await client.finalizedHeight();
    final = finalized !== null && finalized >= blockNumber;
  }
  if (receipt.status !== 'success') return { state: 'reverted', final };
  const amount = word(`0x${expect.raw.toString(16)}`);
  const paid = (receipt.logs ?? []).some(
    (l) =>
      l.address?.toLowerCase() === net.token &&
      l.topics?.length === 3 &&
      l.topics[0]?.toLowerCase() === TRANSFER_TOPIC &&
      (expect.from === undefined || l.topics[1]?.toLowerCase() === word(expect.from)) &&
      l.topics[2]?.toLowerCase() === word(expect.to) &&
      l.data?.toLowerCase() === amount,
  );
  if (!paid) return { state: 'mismatch', reason: `no transfer of the expected amount to ${expect.to} in ${txHash}` };
  return final ? { state: 'final', blockNumber } : { state: 'waiting', confirmations: Math.max(0, confirmations), required: net.confirmations };
}

/**
 * Trust no single node (custody.md section 6): a payout is completed only when the network's quorum
 * of endpoints each find it final and none that answers contradicts it (another result, a revert).
 * The primary's evidence is returned unless another endpoint contradicts it (then `mismatch`, so
 * nothing completes) or too few endpoints confirm (then `waiting`). A silent endpoint does not vote.
 */
export async function quorumEvidence(
  verifiers: readonly ChainClient[],
  quorum: number,
  net: NetworkConfig,
  txHash: string,
  expect: { from?: string | undefined; to: string; raw: bigint },
): Promise<Evidence> {
  const [primary, ...others] = verifiers;
  const first = await payoutEvidence(primary!, net, txHash, expect);
  if (first.state !== 'final' || !others.length) return first;
  const votes = await Promise.all(others.map((v) => payoutEvidence(v, net, txHash, expect).catch(() => null)));
  const against = votes.find((v) => v !== null && (v.state === 'mismatch' || v.state === 'reverted'));
  if (against) return { state: 'mismatch', reason: `endpoints disagree on ${txHash}: ${against.state === 'mismatch' ? against.reason : 'reverted there'}` };
  const agree = 1 + votes.filter((v) => v?.state === 'final').length;
  if (agree < Math.min(quorum, verifiers.length)) return { state: 'waiting', confirmations: agree, required: Math.min(quorum, verifiers.length) };
  return first;
}
