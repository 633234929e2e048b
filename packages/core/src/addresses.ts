import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import type { TWithdrawNetwork } from './constants';

const EVM_RE = /^0x[0-9a-fA-F]{40}$/;
const TRON_RE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
/** The spec's browser-side shape check: T plus 33 letters or digits. */
const TRON_SHAPE_RE = /^T[A-Za-z0-9]{33}$/;

/** EIP-55: all-lower or all-upper hex passes; mixed case must match the keccak-256 checksum. */
export function isValidEvmAddress(address: string): boolean {
  if (!EVM_RE.test(address)) return false;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return toChecksumAddress(address) === address;
}

export function toChecksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1]! >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i];
  }
  return out;
}

/** TRON base58check: 25 bytes, 0x41 prefix, checksum = sha256(sha256(first 21))[0..4]. */
export function isValidTronAddress(address: string): boolean {
  if (!TRON_RE.test(address)) return false;
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return false;
  }
  if (bytes.length !== 25 || bytes[0] !== 0x41) return false;
  const check = sha256(sha256(bytes.slice(0, 21)));
  for (let i = 0; i < 4; i++) if (check[i] !== bytes[21 + i]) return false;
  return true;
}

export function tronAddressFromBytes(payload21: Uint8Array): string {
  const check = sha256(sha256(payload21)).slice(0, 4);
  const full = new Uint8Array(25);
  full.set(payload21, 0);
  full.set(check, 21);
  return base58.encode(full);
}

/** Shape check the spec gives the browser (fast, no checksum). */
export function addressShapeMatches(network: TWithdrawNetwork, address: string): boolean {
  return network === 'TRON' ? TRON_SHAPE_RE.test(address) : EVM_RE.test(address);
}

/** Full check: shape plus EIP-55 or base58check. */
export function isValidAddress(network: TWithdrawNetwork, address: string): boolean {
  return network === 'TRON' ? isValidTronAddress(address) : isValidEvmAddress(address);
}
