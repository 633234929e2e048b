import { sql } from 'kysely';
import type { TAddressFamily } from '@app/core';
import type { AppContext } from '../../context';
import { keyFingerprint } from './derive';
import './table';

const VARIABLE: Record<TAddressFamily, string> = { evm: 'CUSTODY_EVM_XPUB', tron: 'CUSTODY_TRON_XPUB' };

/** A key as the operator compares it with a wallet: the BIP-32 fingerprint (the identifier's first 4 bytes). */
const short = (fingerprint: string | null): string => (fingerprint ? fingerprint.slice(0, 8) : 'legacy (no fingerprint)');

/**
 * `npm run cli -- custody:rotate [--dry-run]` (docs/custody.md, "Changing the xpubs"). A rotation
 * needs nothing but the new setting: users get an address under the new key on their next request
 * and every stored address stays watched. What this command adds is the account of it, per family:
 * which key is new, how many users hold addresses under older keys; without --dry-run it records
 * the new key in custody_keys, so the rotation's time is on record before the first user asks.
 */
export async function custodyRotate(ctx: AppContext, args: string[]): Promise<{ output: string; exitCode: number }> {
  const dryRun = args.includes('--dry-run');
  const unknown = args.filter((a) => a !== '--dry-run');
  if (unknown.length) return { output: `Unknown argument ${unknown[0]}. Usage: custody:rotate [--dry-run]`, exitCode: 2 };
  const lines: string[] = [];
  let recorded = 0;
  for (const family of ['evm', 'tron'] as const) {
    const xpub = ctx.config.payments.custody.xpubs[family];
    if (!xpub) {
      lines.push(`${family}: ${VARIABLE[family]} is not set, nothing to rotate`);
      continue;
    }
    const current = keyFingerprint(xpub.key);
    const byKey = await sql<{ fingerprint: string | null; users: string; addresses: string }>`
      select key_fingerprint as fingerprint, count(distinct user_id) as users, count(*) as addresses
      from custody_addresses where family = ${family} group by key_fingerprint order by min(created_at)`.execute(ctx.db);
    const known = await ctx.db.selectFrom('custody_keys').select('fingerprint').where('family', '=', family).execute();
    const old = byKey.rows.filter((r) => r.fingerprint !== current);
    const onCurrent = byKey.rows.find((r) => r.fingerprint === current);
    const isRecorded = known.some((k) => k.fingerprint === current);
    if (!old.length) {
      lines.push(`${family}: ${VARIABLE[family]} (key ${short(current)}) is the only key with addresses; nothing to rotate`);
    } else {
      lines.push(`${family}: the configured key ${short(current)} (${VARIABLE[family]}) is ${onCurrent ? 'in use' : 'new'}`);
      for (const r of old) lines.push(`  ${r.users} users hold ${r.addresses} addresses under the old key ${short(r.fingerprint)}`);
      if (onCurrent) lines.push(`  ${onCurrent.users} users already have an address under the new key`);
      lines.push('  each user gets an address under the new key on their next request;');
      lines.push('  the old addresses stay watched and credited: sweep them with the old seed (docs/custody.md)');
    }
    if (isRecorded) continue;
    if (dryRun) {
      lines.push(`  would record key ${short(current)} as in use from now`);
      continue;
    }
    // next_idx starts above what the key already handed out, as nextKeyIndex would on first use.
    const res = await sql`
      insert into custody_keys (family, fingerprint, xpub, next_idx)
      values (${family}, ${current}, ${xpub.text},
              (select coalesce(max(idx) + 1, 0) from custody_addresses where family = ${family} and key_fingerprint = ${current}))
      on conflict (family, fingerprint) do nothing`.execute(ctx.db);
    if (Number(res.numAffectedRows ?? 0n) > 0) {
      recorded += 1;
      lines.push(`  recorded key ${short(current)} as in use from now`);
    }
  }
  if (dryRun) lines.push('Dry run: nothing recorded.');
  else if (!recorded) lines.push('Nothing to record: the configured keys are on record already.');
  ctx.log.info({ dryRun, recorded }, 'custody:rotate');
  return { output: lines.join('\n'), exitCode: 0 };
}
