import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, hdKeyToAccount, privateKeyToAddress, type HDAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';
import { tronAddressOf } from './tron';

/**
 * The keys the signer derives from its one mnemonic (custody.md section 6): the hot wallet is
 * account 1 (m/44'/60'/1'/0/0, Tron's m/44'/195'/1'/0/0), the deposit addresses account 0
 * (m/44'/60'/0'/0/i, Tron's m/44'/195'/0'/0/i), whose first addresses are also "our own" for the
 * payout refusal.
 */
export interface SignerKeys {
  hot: HDAccount;
  /** m/44'/60'/0'/0: deposit address i is its child i */
  deposits: HDKey;
  /** the Tron hot wallet (m/44'/195'/1'/0/0): its key and its address as 41… hex */
  tronHot: { privateKey: Uint8Array; address: string };
  /** m/44'/195'/0'/0: Tron deposit address i is its child i */
  tronDeposits: HDKey;
  /** lowercase hex (0x + 20 bytes, Tron's too) of our hot and first `scan` deposit addresses */
  own: Set<string>;
}

export function deriveKeys(mnemonic: string, scan: number): SignerKeys {
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const hot = hdKeyToAccount(master, { accountIndex: 1, addressIndex: 0 });
  const own = new Set([hot.address.toLowerCase()]);
  const deposits = master.derive("m/44'/60'/0'/0");
  for (let i = 0; i < scan; i++) own.add(privateKeyToAddress(bytesToHex(deposits.deriveChild(i).privateKey!)).toLowerCase());
  // Tron: account 1 for the hot wallet, account 0 for deposits; an address is the same 20 bytes an
  // EVM chain would take from the key (keccak256 of the public key), behind 0x41.
  const tronKey = master.derive("m/44'/195'/1'/0/0").privateKey!;
  const tronHot = { privateKey: tronKey, address: tronAddressOf(tronKey) };
  own.add(`0x${tronHot.address.slice(2)}`);
  const tronDeposits = master.derive("m/44'/195'/0'/0");
  for (let i = 0; i < scan; i++) own.add(`0x${tronAddressOf(tronDeposits.deriveChild(i).privateKey!).slice(2)}`);
  return { hot, deposits, tronHot, tronDeposits, own };
}
