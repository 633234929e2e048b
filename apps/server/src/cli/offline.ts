import { chainSend } from '../modules/custody/send-command';
import { custodyXpubOutput, readStdin } from '../modules/custody/xpub-command';
import { demoStatePath, readDemoState } from './demo-chain-state';
import type { CommandResult } from './commands';

/**
 * Commands that need no database and no server configuration: they run in the CLI process only,
 * before anything is opened (`custody:xpub` must not even look at DATA_DIR: it handles a seed).
 */
export const offlineCommands: Record<string, { usage: string; run: (args: string[]) => Promise<CommandResult> }> = {
  'custody:xpub': {
    usage: 'custody:xpub [--count N] (mnemonic on standard input)',
    run: async (args) => {
      const i = args.indexOf('--count');
      const count = i >= 0 ? Number(args[i + 1]) : 3;
      if (!Number.isInteger(count) || count < 1 || count > 100) return { output: '--count must be a whole number from 1 to 100', exitCode: 2 };
      if (args.some((a) => a.split(/\s+/).length >= 12))
        return { output: 'Give the mnemonic on standard input, never as an argument (it would stay in the shell history)', exitCode: 2 };
      if (process.stdin.isTTY) process.stderr.write('Type the mnemonic, then Enter and Ctrl-D:\n');
      return custodyXpubOutput(await readStdin(), count);
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
