import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { ACCOUNT_PATH, deriveAddress, keyFingerprint } from './derive';

/**
 * `npm run cli -- custody:xpub [--index N] [--count N]`: the operator's offline step (docs/custody.md). Reads a
 * BIP-39 mnemonic from standard input, never from an argument or the environment (both end up in
 * shell history and process listings), prints the two account xpubs to configure and the first
 * addresses they give, and stores nothing: no file, no database.
 */
export function custodyXpubOutput(mnemonicText: string, count = 3, first = 0): { output: string; exitCode: number } {
  const mnemonic = mnemonicText.trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(mnemonic, wordlist)) return { output: 'Not a valid BIP-39 mnemonic (English word list, checksum)', exitCode: 2 };
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  // From the public keys only, as the server derives them: what is printed is what users are given.
  const evm = HDKey.fromExtendedKey(root.derive(ACCOUNT_PATH.evm).publicExtendedKey);
  const tron = HDKey.fromExtendedKey(root.derive(ACCOUNT_PATH.tron).publicExtendedKey);
  const indexes = Array.from({ length: count }, (_, k) => first + k);
  const lines = [
    `CUSTODY_EVM_XPUB=${evm.publicExtendedKey}`,
    `CUSTODY_TRON_XPUB=${tron.publicExtendedKey}`,
    // What custody:rotate and the stored addresses name a key by.
    `key fingerprints: evm ${keyFingerprint(evm).slice(0, 8)}, tron ${keyFingerprint(tron).slice(0, 8)}`,
    // The signer's hot wallet (account 1, custody.md section 6): public, for the server's configuration.
    `CUSTODY_HOT_EVM_ADDRESS=${deriveAddress('evm', HDKey.fromExtendedKey(root.derive("m/44'/60'/1'").publicExtendedKey), 0).display}`,
    `CUSTODY_HOT_TRON_ADDRESS=${deriveAddress('tron', HDKey.fromExtendedKey(root.derive("m/44'/195'/1'").publicExtendedKey), 0).display}`,
    '',
    `EVM addresses (BSC and Polygon), ${ACCOUNT_PATH.evm}/0/i:`,
    ...indexes.map((i) => `  ${i}: ${deriveAddress('evm', evm, i).display}`),
    `Tron addresses, ${ACCOUNT_PATH.tron}/0/i:`,
    ...indexes.map((i) => `  ${i}: ${deriveAddress('tron', tron, i).display}`),
  ];
  return { output: lines.join('\n'), exitCode: 0 };
}

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}
