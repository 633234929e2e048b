import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';

/**
 * Tron as the signer uses it (custody.md section 6): the full node's documented HTTP API only
 * (no tronweb). The node builds the unsigned TRC-20 `transfer` (`/wallet/triggersmartcontract`);
 * the signer re-encodes that transaction's `raw_data` itself (protobuf `Transaction.raw` with our own
 * owner, contract, call data and fee limit, only the reference block, expiration and timestamp taken
 * from the node), so it never signs a transaction it did not mean: the id it signs is the sha256 of
 * bytes it built. Signatures are secp256k1 (@noble/curves) over the txID, as r ‖ s ‖ v (v = 27 + recovery).
 */

/** 0x41 ‖ the 20 bytes, lowercase hex without 0x: the form Tron's API takes with `visible: false`. */
export type TronHex = string;

export const TRANSFER_SELECTOR = 'a9059cbb';
const TRIGGER_TYPE_URL = 'type.googleapis.com/protocol.TriggerSmartContract';
const TRIGGER_SMART_CONTRACT = 31;
const TRANSFER_TYPE_URL = 'type.googleapis.com/protocol.TransferContract';
const TRANSFER_CONTRACT = 1;

export function tronHexOf(address20: string): TronHex {
  const h = address20.replace(/^0x/, '').replace(/^41(?=[0-9a-fA-F]{40}$)/, '');
  if (!/^[0-9a-fA-F]{40}$/.test(h)) throw new Error(`not a 20-byte address: ${address20}`);
  return `41${h.toLowerCase()}`;
}

/** A T… address (base58check of 0x41 ‖ 20 bytes) as 41… hex, or null when its checksum fails. */
export function tronHexOfBase58(t: string): TronHex | null {
  let full: Uint8Array;
  try {
    full = base58.decode(t);
  } catch {
    return null;
  }
  if (full.length !== 25 || full[0] !== 0x41) return null;
  const check = sha256(sha256(full.slice(0, 21))).slice(0, 4);
  return check.every((b, i) => b === full[21 + i]) ? bytesToHex(full.slice(0, 21)) : null;
}

/** 41… hex as the T… address users see. */
export function tronBase58Of(hex: TronHex): string {
  const payload = hexToBytes(hex);
  return base58.encode(new Uint8Array([...payload, ...sha256(sha256(payload)).slice(0, 4)]));
}

/** The Tron address of a private key: 0x41 ‖ the last 20 bytes of keccak256 of its public key. */
export function tronAddressOf(privateKey: Uint8Array): TronHex {
  const pub = secp256k1.getPublicKey(privateKey, false);
  return `41${bytesToHex(keccak_256(pub.slice(1)).slice(-20))}`;
}

// --- protobuf, as much as Transaction.raw with one TriggerSmartContract needs ---
function varint(n: bigint): number[] {
  const out: number[] = [];
  let v = n;
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const tag = (field: number, wire: 0 | 2) => varint(BigInt((field << 3) | wire));
const int = (field: number, n: bigint | number) => (BigInt(n) === 0n ? [] : [...tag(field, 0), ...varint(BigInt(n))]);
const bytes = (field: number, b: Uint8Array | number[]) => (b.length === 0 ? [] : [...tag(field, 2), ...varint(BigInt(b.length)), ...b]);

export interface TriggerRaw {
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
  fee_limit: number;
  owner: TronHex;
  contract: TronHex;
  /** the call data, hex without 0x */
  data: string;
}

/** protobuf Transaction.raw of one TriggerSmartContract (field numbers of java-tron's Tron.proto). */
export function encodeTriggerRaw(r: TriggerRaw): Uint8Array {
  const trigger = [...bytes(1, hexToBytes(r.owner)), ...bytes(2, hexToBytes(r.contract)), ...bytes(4, hexToBytes(r.data))];
  const any = [...bytes(1, new TextEncoder().encode(TRIGGER_TYPE_URL)), ...bytes(2, trigger)];
  const contract = [...int(1, TRIGGER_SMART_CONTRACT), ...bytes(2, any)];
  return new Uint8Array([
    ...bytes(1, hexToBytes(r.ref_block_bytes)),
    ...bytes(4, hexToBytes(r.ref_block_hash)),
    ...int(8, r.expiration),
    ...bytes(11, contract),
    ...int(14, r.timestamp),
    ...int(18, r.fee_limit),
  ]);
}

export interface TransferRaw {
  ref_block_bytes: string;
  ref_block_hash: string;
  expiration: number;
  timestamp: number;
  owner: TronHex;
  to: TronHex;
  /** sun */
  amount: bigint;
}

/** protobuf Transaction.raw of one TransferContract (TRX), which carries no fee_limit. */
export function encodeTransferRaw(r: TransferRaw): Uint8Array {
  const transfer = [...bytes(1, hexToBytes(r.owner)), ...bytes(2, hexToBytes(r.to)), ...int(3, r.amount)];
  const any = [...bytes(1, new TextEncoder().encode(TRANSFER_TYPE_URL)), ...bytes(2, transfer)];
  const contract = [...int(1, TRANSFER_CONTRACT), ...bytes(2, any)];
  return new Uint8Array([
    ...bytes(1, hexToBytes(r.ref_block_bytes)),
    ...bytes(4, hexToBytes(r.ref_block_hash)),
    ...int(8, r.expiration),
    ...bytes(11, contract),
    ...int(14, r.timestamp),
  ]);
}

/** The call data of `transfer(to, raw)`, hex without 0x. */
export function transferData(to: TronHex, raw: bigint): string {
  return `${TRANSFER_SELECTOR}${to.slice(2).padStart(64, '0')}${raw.toString(16).padStart(64, '0')}`;
}

/** A transaction as the node's API carries it (visible: false). */
export interface TronTx {
  visible: false;
  txID: string;
  raw_data: {
    contract: { parameter: { value: { data: string; owner_address: string; contract_address: string }; type_url: string }; type: string }[];
    ref_block_bytes: string;
    ref_block_hash: string;
    expiration: number;
    timestamp: number;
    fee_limit: number;
  };
  raw_data_hex: string;
  signature?: string[];
}

/** A TRX transfer as the node's API carries it (visible: false); amount in sun. */
export interface TronTrxTx {
  visible: false;
  txID: string;
  raw_data: {
    contract: { parameter: { value: { amount: number; owner_address: string; to_address: string }; type_url: string }; type: string }[];
    ref_block_bytes: string;
    ref_block_hash: string;
    expiration: number;
    timestamp: number;
  };
  raw_data_hex: string;
  signature?: string[];
}

export type AnyTronTx = TronTx | TronTrxTx;

export interface TronTxInfo {
  id?: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  result?: string;
  receipt?: { result?: string };
  log?: { address: string; topics: string[]; data: string }[];
}

export class TronNodeError extends Error {}

export class TronNode {
  constructor(
    readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async post<T>(path: string, body: unknown = {}): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new TronNodeError(`Tron node answered ${res.status} on ${path}`);
    return (await res.json()) as T;
  }

  /** The solidified block (final: it can never leave the chain): its number and timestamp (ms). */
  async solidified(): Promise<{ number: number; timestamp: number }> {
    return this.nowBlock('/walletsolidity/getnowblock');
  }

  /** The node's head block: its timestamp is the chain's clock, which a transaction's expiration is judged by. */
  async head(): Promise<{ number: number; timestamp: number }> {
    return this.nowBlock('/wallet/getnowblock');
  }

  private async nowBlock(path: string): Promise<{ number: number; timestamp: number }> {
    const b = await this.post<{ block_header?: { raw_data?: { number?: number; timestamp?: number } } }>(path);
    const raw = b.block_header?.raw_data;
    if (raw?.number === undefined || raw.timestamp === undefined) throw new TronNodeError('getnowblock answered no block');
    return { number: Number(raw.number), timestamp: Number(raw.timestamp) };
  }

  async txInfo(txID: string): Promise<TronTxInfo | null> {
    const info = await this.post<TronTxInfo>('/wallet/gettransactioninfobyid', { value: txID });
    return info && info.id && info.blockNumber !== undefined ? info : null;
  }

  /** TRX balance in sun (0 for an account the chain has never seen). */
  async trxBalance(address: TronHex): Promise<bigint> {
    const a = await this.post<{ balance?: number | string }>('/wallet/getaccount', { address, visible: false });
    return BigInt(a.balance ?? 0);
  }

  async tokenBalance(token: TronHex, owner: TronHex): Promise<bigint> {
    const r = await this.post<{ constant_result?: string[]; result?: { result?: boolean; message?: string } }>('/wallet/triggerconstantcontract', {
      owner_address: owner,
      contract_address: token,
      function_selector: 'balanceOf(address)',
      parameter: owner.slice(2).padStart(64, '0'),
      visible: false,
    });
    const out = r.constant_result?.[0];
    if (!out) throw new TronNodeError(`balanceOf answered nothing: ${r.result?.message ?? ''}`);
    return BigInt(`0x${out}`);
  }

  /**
   * The unsigned transfer, built by the node and checked here: its raw_data_hex must be exactly our
   * encoding of our own fields (with the node's reference block, expiration and timestamp) and its
   * txID the sha256 of those bytes. Anything else is refused before a signature exists.
   */
  async buildTransfer(p: { owner: TronHex; token: TronHex; to: TronHex; raw: bigint; feeLimit: number }): Promise<TronTx> {
    const res = await this.post<{ result?: { result?: boolean; message?: string }; transaction?: TronTx }>('/wallet/triggersmartcontract', {
      owner_address: p.owner,
      contract_address: p.token,
      function_selector: 'transfer(address,uint256)',
      parameter: transferData(p.to, p.raw).slice(8),
      fee_limit: p.feeLimit,
      call_value: 0,
      visible: false,
    });
    const tx = res.transaction;
    if (res.result?.result !== true || !tx) throw new TronNodeError(`triggersmartcontract refused: ${decodeMessage(res.result?.message)}`);
    const r = tx.raw_data;
    const mine = encodeTriggerRaw({
      ref_block_bytes: r.ref_block_bytes,
      ref_block_hash: r.ref_block_hash,
      expiration: r.expiration,
      timestamp: r.timestamp,
      fee_limit: p.feeLimit,
      owner: p.owner,
      contract: p.token,
      data: transferData(p.to, p.raw),
    });
    if (bytesToHex(mine) !== tx.raw_data_hex.toLowerCase())
      throw new TronNodeError('the node built another transaction than the transfer asked for: not signed');
    if (bytesToHex(sha256(mine)) !== tx.txID.toLowerCase())
      throw new TronNodeError('the node gave a txID that is not the sha256 of the transaction: not signed');
    if (!(r.expiration > r.timestamp)) throw new TronNodeError('the transaction has no expiration after its timestamp');
    return { ...tx, txID: tx.txID.toLowerCase(), raw_data_hex: tx.raw_data_hex.toLowerCase() };
  }

  /**
   * The unsigned TRX transfer (`/wallet/createtransaction`), checked as the TRC-20 one is: our own
   * encoding of owner, recipient and amount with the node's reference block, expiration and
   * timestamp must be its raw_data_hex byte for byte, and the txID their sha256.
   */
  async buildTrxTransfer(p: { owner: TronHex; to: TronHex; amount: bigint }): Promise<TronTrxTx> {
    // The API takes the amount as a JSON number: refuse one it could not carry exactly.
    if (p.amount <= 0n || p.amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new TronNodeError(`a TRX amount of ${p.amount} sun cannot be asked for`);
    const res = await this.post<Partial<TronTrxTx> & { Error?: string }>('/wallet/createtransaction', {
      owner_address: p.owner,
      to_address: p.to,
      amount: Number(p.amount),
      visible: false,
    });
    if (!res.txID || !res.raw_data || !res.raw_data_hex) throw new TronNodeError(`createtransaction refused: ${res.Error ?? 'no transaction'}`);
    const tx = res as TronTrxTx;
    const r = tx.raw_data;
    const mine = encodeTransferRaw({
      ref_block_bytes: r.ref_block_bytes,
      ref_block_hash: r.ref_block_hash,
      expiration: r.expiration,
      timestamp: r.timestamp,
      owner: p.owner,
      to: p.to,
      amount: p.amount,
    });
    if (bytesToHex(mine) !== tx.raw_data_hex.toLowerCase())
      throw new TronNodeError('the node built another transaction than the TRX transfer asked for: not signed');
    if (bytesToHex(sha256(mine)) !== tx.txID.toLowerCase())
      throw new TronNodeError('the node gave a txID that is not the sha256 of the transaction: not signed');
    if (!(r.expiration > r.timestamp)) throw new TronNodeError('the transaction has no expiration after its timestamp');
    return { ...tx, txID: tx.txID.toLowerCase(), raw_data_hex: tx.raw_data_hex.toLowerCase() };
  }

  /** 'sent' (accepted now, or already known), 'expired' (too late: it can never be included), or throws. */
  async broadcast(tx: AnyTronTx): Promise<'sent' | 'expired'> {
    const res = await this.post<{ result?: boolean; code?: string; message?: string }>('/wallet/broadcasttransaction', tx);
    if (res.result === true || res.code === 'DUP_TRANSACTION_ERROR') return 'sent';
    if (res.code === 'TRANSACTION_EXPIRATION_ERROR') return 'expired';
    throw new TronNodeError(`broadcast refused: ${res.code ?? 'no code'} ${decodeMessage(res.message)}`);
  }
}

/** Tron's error messages are hex-encoded text. */
function decodeMessage(m: string | undefined): string {
  if (!m) return '';
  if (!/^([0-9a-fA-F]{2})+$/.test(m)) return m;
  return new TextDecoder().decode(hexToBytes(m));
}

/** Signs the txID (the sha256 of raw_data): r ‖ s ‖ v, hex. */
export function signTronTx<T extends AnyTronTx>(tx: T, privateKey: Uint8Array): T {
  if (bytesToHex(sha256(hexToBytes(tx.raw_data_hex))) !== tx.txID) throw new TronNodeError('txID is not the sha256 of raw_data');
  const rec = secp256k1.sign(hexToBytes(tx.txID), privateKey, { prehash: false, format: 'recovered' });
  const sig = new Uint8Array(65);
  sig.set(rec.slice(1), 0);
  sig[64] = 27 + rec[0]!;
  return { ...tx, signature: [bytesToHex(sig)] };
}
