import { chainSend } from '../modules/custody/send-command';
import { custodyXpubOutput, readStdin } from '../modules/custody/xpub-command';
import { demoStatePath, readDemoState } from './demo-chain-state';
import type { CommandResult } from './commands';

/** Non-hardened child indexes end here (BIP-32): `…/0/i` exists for i < 2^31. */
const LAST_INDEX = 2 ** 31 - 1;
/** Enough for a sweep of every address a large deployment hands out, small enough to print. */
const MAX_COUNT = 100_000;

/**
 * custody:xpub's flags. Anything else is refused, and words are refused with the reason: a mnemonic
 * typed as arguments (`custody:xpub word1 word2 …`) is already in the shell history.
 */
export function xpubArgs(args: string[]): { index: number; count: number } | CommandResult {
  const out = { index: 0, count: 3 };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const [name, inline] = a.startsWith('--') ? a.slice(2).split('=', 2) : [undefined, undefined];
    if (name === 'index' || name === 'count') {
      const text = inline ?? args[++i];
      const n = text !== undefined && /^\d+$/.test(text) ? Number(text) : NaN;
      if (name === 'count' && (!Number.isSafeInteger(n) || n < 1 || n > MAX_COUNT))
        return { output: `--count must be a whole number from 1 to ${MAX_COUNT}`, exitCode: 2 };
      if (name === 'index' && (!Number.isSafeInteger(n) || n > LAST_INDEX))
        return { output: `--index must be a whole number from 0 to ${LAST_INDEX}`, exitCode: 2 };
      out[name] = n;
      continue;
    }
    if (name !== undefined)
      return { output: `Unknown option --${name}. Usage: custody:xpub [--index N] [--count N] (mnemonic on standard input)`, exitCode: 2 };
    return {
      output:
        'Give the mnemonic on standard input, never as arguments (they stay in the shell history and show in process lists): ' +
        'run npm run cli -- custody:xpub, type the words, then Enter and Ctrl-D. Clear this line from your shell history.',
      exitCode: 2,
    };
  }
  if (out.index + out.count - 1 > LAST_INDEX) return { output: `--index plus --count goes past the last index ${LAST_INDEX}`, exitCode: 2 };
  return out;
}

/**
 * Commands that need no database and no server configuration: they run in the CLI process only,
 * before anything is opened (`custody:xpub` must not even look at DATA_DIR: it handles a seed).
 */
export const offlineCommands: Record<string, { usage: string; run: (args: string[]) => Promise<CommandResult> }> = {
  'custody:xpub': {
    usage: 'custody:xpub [--index N] [--count N] (mnemonic on standard input)',
    run: async (args) => {
      const parsed = xpubArgs(args);
      if ('output' in parsed) return parsed;
      if (process.stdin.isTTY) process.stderr.write('Type the mnemonic, then Enter and Ctrl-D:\n');
      return custodyXpubOutput(await readStdin(), parsed.count, parsed.index);
    },
  },
  'chain:send': {
    usage: 'chain:send --network bsc|polygon|tron --to ADDRESS --amount N (the demo chain of npm run demo:chain)',
    run: async (args) => {
      const get = (name: string) => {
        const i = args.indexOf(`--${name}`);
        return i >= 0 ? args[i + 1] : undefined;
      };
      const [network, to, amount] = [get('network'), get('to'), get('amount')];
      if (!network || !to || !amount) return { output: 'Usage: chain:send --network bsc|polygon|tron --to ADDRESS --amount N', exitCode: 2 };
      const state = readDemoState();
      if (!state) return { output: `No demo chain running (${demoStatePath()} not found): start it with npm run demo:chain`, exitCode: 2 };
      try {
        return { output: await chainSend(state, { network, to, amount }), exitCode: 0 };
      } catch (err) {
        return { output: err instanceof Error ? err.message : String(err), exitCode: 1 };
      }
    },
  },
};
