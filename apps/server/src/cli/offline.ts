import { custodyXpubOutput, readStdin } from '../modules/custody/xpub-command';
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
};
