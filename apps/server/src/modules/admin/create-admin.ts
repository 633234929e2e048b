import { sql } from 'kysely';
import type { DB } from '../../db/types';
import { AppError } from '../../lib/errors';
import { generateUsername, hashPassword } from '../auth/service';
import * as team from '../team/service';

/** Creates a verified admin, or promotes the account with that e-mail and sets its password. */
export async function createAdmin(db: DB, email: string, password: string): Promise<{ id: bigint; created: boolean }> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('VALIDATION', 'Invalid email address');
  if (password.length < 8) throw new AppError('VALIDATION', 'Admin password must be at least 8 characters');
  const hash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    const promote = async (id: bigint) => {
      await tx
        .updateTable('users')
        .set({ is_admin: true, password_hash: hash, email_verified_at: new Date(), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      return { id, created: false };
    };
    const byEmail = () =>
      tx
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
        .executeTakeFirst();
    const existing = await byEmail();
    if (existing) return promote(existing.id);
    // Several processes starting with ADMIN_EMAIL at once all find no account; the unique index
    // on lower(email) lets one insert win and the others fall through to promoting its row.
    const row = await tx
      .insertInto('users')
      .values({ name: 'Administrator', email, username: await generateUsername(tx), password_hash: hash, is_admin: true, email_verified_at: new Date() })
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const winner = await byEmail();
      if (!winner) throw new Error(`admin ${email} neither inserted nor found`);
      return promote(winner.id);
    }
    await team.onUserCreated(tx, row.id, null);
    return { id: row.id, created: true };
  });
}

/** ADMIN_EMAIL + ADMIN_PASSWORD at start: create an admin when none exists yet. */
export async function bootstrapAdmin(db: DB, email: string | undefined, password: string | undefined): Promise<boolean> {
  if (!email || !password) return false;
  const any = await db.selectFrom('users').select('id').where('is_admin', '=', true).executeTakeFirst();
  if (any) return false;
  return (await createAdmin(db, email, password)).created;
}
