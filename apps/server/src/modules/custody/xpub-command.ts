import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { ACCOUNT_PATH, deriveAddress } from './derive';

/**
 * `npm run cli -- custody:xpub [--count N]`: the operator's offline step (docs/custody.md). Reads a
 * BIP-39 mnemonic from standard input, never from an argument or the environment (both end up in
 * shell history and process listings), prints the two account xpubs to configure and the first
 * addresses they give, and stores nothing: no file, no database.
 */
export function custodyXpubOutput(mnemonicText: string, count = 3): { output: string; exitCode: number } {
  const mnemonic = mnemonicText.trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(mnemonic, wordlist)) return { output: 'Not a valid BIP-39 mnemonic (English word list, checksum)', exitCode: 2 };
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  const evm = root.derive(ACCOUNT_PATH.evm);
  const tron = root.derive(ACCOUNT_PATH.tron);
  const lines = [
    `CUSTODY_EVM_XPUB=${evm.publicExtendedKey}`,
    `CUSTODY_TRON_XPUB=${tron.publicExtendedKey}`,
    '',
    `EVM addresses (BSC and Polygon), ${ACCOUNT_PATH.evm}/0/i:`,
    ...Array.from({ length: count }, (_, i) => `  ${i}: ${deriveAddress('evm', HDKey.fromExtendedKey(evm.publicExtendedKey), i).display}`),
    `Tron addresses, ${ACCOUNT_PATH.tron}/0/i:`,
    ...Array.from({ length: count }, (_, i) => `  ${i}: ${deriveAddress('tron', HDKey.fromExtendedKey(tron.publicExtendedKey), i).display}`),
  ];
  return { output: lines.join('\n'), exitCode: 0 };
}

export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}
