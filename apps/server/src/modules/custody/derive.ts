import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { HARDENED_OFFSET, HDKey } from '@scure/bip32';
import { toChecksumAddress, tronAddressFromBytes, type TAddressFamily } from '@app/core';

/** The account-level paths the operator exports an xpub of (BIP-44, coin 60 for EVM, 195 for Tron). */
export const ACCOUNT_PATH: Record<TAddressFamily, string> = { evm: "m/44'/60'/0'", tron: "m/44'/195'/0'" };

/** A bad xpub: the message names what is wrong, the caller names the variable. */
export class XpubError extends Error {}

/**
 * Reads an account-level extended public key. Refuses a private key (the server must never hold
 * one), anything but a depth-3 key with a hardened index (an account key, `m/44'/coin'/account'`),
 * and text that is not an extended key at all.
 */
export function parseAccountXpub(text: string, family: TAddressFamily): HDKey {
  const trimmed = text.trim();
  if (/^[a-z]prv/.test(trimmed))
    throw new XpubError(`is a private key (${trimmed.slice(0, 4)}); give the xpub of ${ACCOUNT_PATH[family]}, never a private key`);
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(trimmed);
  } catch (err) {
    throw new XpubError(`is not an extended public key (xpub…): ${err instanceof Error ? err.message : String(err)}`);
  }
  if (key.privateKey) throw new XpubError(`is a private key; give the xpub of ${ACCOUNT_PATH[family]}, never a private key`);
  if (key.depth !== 3 || key.index < HARDENED_OFFSET)
    throw new XpubError(`must be the account-level xpub of ${ACCOUNT_PATH[family]} (depth 3, hardened), got depth ${key.depth}`);
  return key;
}

/**
 * What an address row records of the key that derived it: the key's full hash160 identifier in hex
 * (the 4-byte BIP-32 fingerprint is its first 8 characters; the full one cannot collide in practice).
 */
export function keyFingerprint(account: HDKey): string {
  if (!account.identifier) throw new Error('an account key without a public key');
  return bytesToHex(account.identifier);
}

/** The 20 address bytes of `…/0/index`: keccak-256 of the uncompressed public key, last 20 bytes (EVM and Tron alike). */
const receiving = new WeakMap<HDKey, HDKey>();
export function deriveAddressBytes(account: HDKey, index: number): Uint8Array {
  // The external chain `…/0` is derived once per account key; each address is one step from it.
  let external = receiving.get(account);
  if (!external) {
    external = account.deriveChild(0);
    receiving.set(account, external);
  }
  const child = external.deriveChild(index);
  if (!child.publicKey) throw new Error('derivation gave no public key');
  const uncompressed = secp256k1.Point.fromBytes(child.publicKey).toBytes(false);
  return keccak_256(uncompressed.slice(1)).slice(12);
}

/** 20 bytes as the stored form: lowercase 0x hex. */
export const hexAddress = (bytes: Uint8Array): string => `0x${bytesToHex(bytes)}`;

/** The address as users see it: EIP-55 for EVM, base58check of 0x41 ‖ the 20 bytes for Tron. */
export function displayAddress(family: TAddressFamily, hex: string): string {
  if (family === 'evm') return toChecksumAddress(hex);
  const payload = new Uint8Array(21);
  payload[0] = 0x41;
  payload.set(Buffer.from(hex.slice(2), 'hex'), 1);
  return tronAddressFromBytes(payload);
}

/** The stored form of a displayed address (EIP-55/lowercase EVM or a T… Tron address), or null. */
export function addressHex(family: TAddressFamily, display: string): string | null {
  if (family === 'evm') return /^0x[0-9a-fA-F]{40}$/.test(display) ? display.toLowerCase() : null;
  return tronToHex(display);
}

function tronToHex(t: string): string | null {
  let full: Uint8Array;
  try {
    full = base58.decode(t);
  } catch {
    return null;
  }
  if (full.length !== 25 || full[0] !== 0x41) return null;
  const hex = `0x${bytesToHex(full.slice(1, 21))}`;
  // Re-encoding checks the 4-byte checksum.
  return displayAddress('tron', hex) === t ? hex : null;
}

/** Both forms of user address `index` from an account xpub. */
export function deriveAddress(family: TAddressFamily, account: HDKey, index: number): { hex: string; display: string } {
  const hex = hexAddress(deriveAddressBytes(account, index));
  return { hex, display: displayAddress(family, hex) };
}
