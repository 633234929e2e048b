import { commands } from './commands';
import { offlineCommands } from './offline';

/** Every command's usage, read from the tables that run them, so that no command is left out of it. */
export function usageText(): string {
  const all = [...Object.values(commands).map((c) => c.usage), 'backup FILE', 'restore FILE [--clean]', ...Object.values(offlineCommands).map((c) => c.usage)];
  return `Usage: npm run cli -- <command> [args]\n${all.map((u) => `  ${u}`).join('\n')}`;
}
