import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, hdKeyToAccount, privateKeyToAddress, type HDAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';

/**
 * The keys the signer derives from its one mnemonic (custody.md section 6): the hot wallet is
 * account 1 (m/44'/60'/1'/0/0), the deposit addresses account 0 (m/44'/60'/0'/0/i), whose first
 * addresses are also "our own" for the payout refusal.
 */
export interface SignerKeys {
  hot: HDAccount;
  /** m/44'/60'/0'/0: deposit address i is its child i */
  deposits: HDKey;
  /** lowercase hex of our hot and first `scan` deposit addresses */
  own: Set<string>;
}

export function deriveKeys(mnemonic: string, scan: number): SignerKeys {
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const hot = hdKeyToAccount(master, { accountIndex: 1, addressIndex: 0 });
  const own = new Set([hot.address.toLowerCase()]);
  const deposits = master.derive("m/44'/60'/0'/0");
  for (let i = 0; i < scan; i++) own.add(privateKeyToAddress(bytesToHex(deposits.deriveChild(i).privateKey!)).toLowerCase());
  return { hot, deposits, own };
}
