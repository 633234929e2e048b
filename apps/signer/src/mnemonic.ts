import { statSync, readFileSync } from 'node:fs';
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { SignerConfigError } from './config';

/**
 * The one mnemonic, from its file: refused when the file is readable or writable by anyone but its
 * owner (the keys of every deposit address and the hot wallet derive from it), or when it is not a
 * valid BIP-39 English mnemonic. Its words never reach a log or an error message.
 */
export function readMnemonic(file: string): string {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    throw new SignerConfigError(`SIGNER_MNEMONIC_FILE ${file} cannot be read`);
  }
  if ((mode & 0o077) !== 0)
    throw new SignerConfigError(`SIGNER_MNEMONIC_FILE ${file} is readable by others (mode ${(mode & 0o777).toString(8)}): chmod 600 it`);
  const words = readFileSync(file, 'utf8').trim().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist)) throw new SignerConfigError(`SIGNER_MNEMONIC_FILE ${file} does not hold a valid BIP-39 mnemonic`);
  return words;
}
