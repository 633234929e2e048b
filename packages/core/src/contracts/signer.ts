import { z } from 'zod';
import { defineContract } from './define';

/**
 * The signer's internal routes (custody.md section 6): the signer process calls them with its own
 * bearer token; they are left out of the public OpenAPI document. Amounts are micro-units as
 * decimal text, exact (the signer turns them into token units itself).
 */
const auth = 'signer' as const;
const tag = 'internal';

export const ZSignerNetwork = z.enum(['bsc', 'polygon', 'tron']);
export type TSignerNetwork = z.output<typeof ZSignerNetwork>;
const ZMicroText = z.string().regex(/^\d{1,20}$/, 'must be micro-units as decimal digits');
const ZNonceText = z.string().regex(/^\d{1,20}$/, 'must be a nonce as decimal digits');
const ZHash = z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'must be a transaction hash');

export const ZSignerPayout = z.object({
  id: z.string(),
  network: ZSignerNetwork,
  /** the destination in its chain's lowercase hex form (0x + 40 digits; Tron's 20 bytes too) */
  to: z.string(),
  /** what the user receives, in micro-units */
  amount_micro: ZMicroText,
  status: z.enum(['approved', 'sent']),
  nonce: ZNonceText.nullable(),
  tx_hash: z.string().nullable(),
  /** the destination is one of our own deposit addresses: the signer refuses it */
  ours: z.boolean(),
});
export type TSignerPayout = z.output<typeof ZSignerPayout>;

export const ZSignerReport = z.discriminatedUnion('state', [
  /** signed and broadcast (or a replacement under the same nonce, with its new hash) */
  z.object({ state: z.literal('sent'), nonce: ZNonceText, tx_hash: ZHash }),
  /** over one of the signer's limits: waits, with the reason shown to the admin */
  z.object({ state: z.literal('held'), reason: z.string().min(1).max(300) }),
  /** its transaction is provably dead (reverted, or its nonce taken): approved again */
  z.object({ state: z.literal('failed'), nonce: ZNonceText, tx_hash: ZHash, reason: z.string().min(1).max(300) }),
]);
export type TSignerReport = z.input<typeof ZSignerReport>;

export const ZSignerLimitUse = z.object({ network: ZSignerNetwork, used_micro: ZMicroText, limit_micro: ZMicroText, max_payout_micro: ZMicroText });
/** The hot wallet's balances as the signer read them (token in micro-units, gas in the coin's smallest unit) */
export const ZSignerHotBalance = z.object({ network: ZSignerNetwork, address: z.string(), token_micro: ZMicroText, gas_wei: z.string().regex(/^\d{1,40}$/) });

/** A deposit address holding the token (as the server's balances job last read it), by its index under account 0. */
export const ZSweepCandidate = z.object({ network: ZSignerNetwork, address: z.string(), index: z.number().int().min(0), balance_raw: z.string() });
export type TSweepCandidate = z.output<typeof ZSweepCandidate>;
export const ZSweepReport = z.object({
  network: ZSignerNetwork,
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x… address'),
  amount_raw: z.string().regex(/^\d{1,78}$/, 'must be the raw token amount as decimal digits'),
  destination: z.enum(['hot', 'cold']),
  gas_tx: ZHash.nullable(),
  token_tx: ZHash,
});
export type TSweepReport = z.output<typeof ZSweepReport>;

export const signer = {
  payouts: defineContract({
    method: 'GET',
    path: '/internal/signer/payouts',
    auth,
    tag,
    hidden: true,
    summary: 'Withdrawals the signer is to pay (approved) or watch (sent)',
    data: z.object({ payouts: z.array(ZSignerPayout) }),
  }),
  report: defineContract({
    method: 'POST',
    path: '/internal/signer/payouts/:id/report',
    auth,
    tag,
    hidden: true,
    summary: 'What the signer did with one payout',
    params: z.object({ id: z.string().regex(/^\d{1,19}$/, 'id must be a number') }),
    body: ZSignerReport,
    data: z.object({ status: z.enum(['approved', 'sent']) }),
    errors: ['CONFLICT', 'NOT_FOUND'],
  }),
  sweeps: defineContract({
    method: 'GET',
    path: '/internal/signer/sweeps',
    auth,
    tag,
    hidden: true,
    summary: 'Deposit addresses holding the token, for the signer to sweep',
    data: z.object({ sweeps: z.array(ZSweepCandidate) }),
  }),
  sweepReport: defineContract({
    method: 'POST',
    path: '/internal/signer/sweeps/report',
    auth,
    tag,
    hidden: true,
    summary: 'A sweep the signer made: recorded once its token transfer is final on chain',
    body: ZSweepReport,
    data: z.object({ recorded: z.boolean() }),
    errors: ['CONFLICT', 'NOT_FOUND'],
  }),
  heartbeat: defineContract({
    method: 'POST',
    path: '/internal/signer/heartbeat',
    auth,
    tag,
    hidden: true,
    summary: "The signer's contact: its limits and what it used today",
    body: z.object({ limits: z.array(ZSignerLimitUse).max(3), hot: z.array(ZSignerHotBalance).max(3) }),
    data: null,
  }),
};
