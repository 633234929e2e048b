import { microToDecimal } from '@app/core';
import type { AppContext } from '../context';
import { createAdmin } from '../modules/admin/create-admin';
import { isDay, runRoi } from '../modules/income/roi';
import * as ledger from '../modules/ledger/service';
import { custodyRotate } from '../modules/custody/rotate-command';
import { sandboxPayCommand } from '../modules/payments/sandbox-chain';
import { updateSettings } from '../modules/settings/service';
import { utcDay } from '@app/core/days';

export interface CommandResult {
  output: string;
  exitCode: number;
}
export type Command = (ctx: AppContext, args: string[]) => Promise<CommandResult>;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

/** Every `npm run cli -- <command>`; the same functions run in the CLI process or inside the server. */
export const commands: Record<string, { usage: string; run: Command }> = {
  'ledger:verify': {
    usage: 'ledger:verify',
    run: async (ctx) => {
      const r = await ledger.verify(ctx.db);
      const lines = [
        r.ok ? 'Ledger OK' : 'Ledger BROKEN',
        `entries: ${r.entries}, accounts: ${r.accounts}, sum of all balances: ${r.totalOfAllBalances}`,
        `unbalanced entries: ${r.unbalancedEntries.length}, mismatched accounts: ${r.mismatchedAccounts.length}, negative user accounts: ${r.negativeUserAccounts.length}, mismatched income totals: ${r.mismatchedTotals.length}, mismatched stakes: ${r.mismatchedStakes.length}`,
        ...r.unbalancedEntries.map((e) => `  unbalanced entry ${e.entryId}: sum ${e.sum}`),
        ...r.mismatchedAccounts.map((a) => `  account ${a.accountId}: cached ${a.cached} != posted ${a.posted}`),
        ...r.negativeUserAccounts.map((a) => `  negative account ${a.accountId} of user ${a.userId}: ${a.balance}`),
        ...r.mismatchedTotals.map((m) => `  user ${m.userId} ${m.field}: total ${m.total} != records ${m.records} / postings ${m.posted}`),
        ...r.mismatchedStakes.map(
          (m) =>
            `  stake ${m.stakeId} of user ${m.userId}: roi_paid ${m.paid} ${m.paid === m.posted ? '=' : '!='} ROI posted ${m.posted}` +
            (m.credits !== undefined ? `, ${m.credits} credits for ${m.days} days` : ''),
        ),
      ];
      return { output: lines.join('\n'), exitCode: r.ok ? 0 : 1 };
    },
  },
  'jobs:roi': {
    usage: 'jobs:roi [--date YYYY-MM-DD]',
    run: async (ctx, args) => {
      const given = flag(args, 'date');
      // `--date` with no value is a mistake, not "today".
      const date = given ?? (args.some((a) => a.startsWith('--date')) ? '' : utcDay());
      if (!isDay(date))
        return { output: date ? `Invalid --date ${date} (expected YYYY-MM-DD)` : 'Missing value for --date (expected YYYY-MM-DD)', exitCode: 2 };
      const r = await runRoi(ctx, date);
      return {
        output: `ROI up to ${date}: ${r.credits} credits on ${r.stakes} stakes, total ${microToDecimal(r.total)} USDT, ${r.completed} stakes completed`,
        exitCode: 0,
      };
    },
  },
  'admin:create': {
    usage: 'admin:create --email E --password P',
    run: async (ctx, args) => {
      const email = flag(args, 'email');
      const password = flag(args, 'password');
      if (!email || !password) return { output: 'Usage: admin:create --email E --password P', exitCode: 2 };
      const r = await createAdmin(ctx.db, email, password);
      return { output: r.created ? `Admin ${email} created` : `${email} is now an admin (password updated)`, exitCode: 0 };
    },
  },
  'settings:maintenance': {
    usage: 'settings:maintenance on|off',
    run: async (ctx, args) => {
      const [value] = args;
      if (value !== 'on' && value !== 'off') return { output: 'Usage: settings:maintenance on|off', exitCode: 2 };
      // Every server process re-reads the flag within 2 s (plugins/maintenance.ts); the one that
      // ran it for the CLI (the hand-off) drops its copy at once (cli/control.ts).
      await updateSettings(ctx.db, { maintenance_mode: value === 'on' });
      return { output: `Maintenance mode is ${value}`, exitCode: 0 };
    },
  },
  'custody:rotate': {
    usage: 'custody:rotate [--dry-run]',
    run: (ctx, args) => custodyRotate(ctx, args),
  },
  'sandbox:pay': {
    usage: 'sandbox:pay <payment_id> <amount>',
    run: async (ctx, args) => {
      if (ctx.config.payments.gateway !== 'sandbox') return { output: 'sandbox:pay needs PAYMENTS_GATEWAY=sandbox', exitCode: 2 };
      return { output: await sandboxPayCommand(ctx, args), exitCode: 0 };
    },
  },
};

export async function runCommand(ctx: AppContext, name: string, args: string[]): Promise<CommandResult> {
  const cmd = commands[name];
  if (!cmd)
    return {
      output: `Unknown command ${name}. Commands: ${Object.values(commands)
        .map((c) => c.usage)
        .join(', ')}`,
      exitCode: 2,
    };
  try {
    return await cmd.run(ctx, args);
  } catch (err) {
    return { output: `Error: ${err instanceof Error ? err.message : String(err)}`, exitCode: 1 };
  }
}
