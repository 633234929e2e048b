import type { DB } from '../../db/types';
import { AppError } from '../../lib/errors';
import { hashPassword } from '../auth/password';
import { generateUsername } from '../auth/usernames';
import * as team from '../team/service';

/** Creates a verified admin, or promotes the account with that e-mail and sets its password. */
export async function createAdmin(db: DB, email: string, password: string): Promise<{ id: bigint; created: boolean }> {
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new AppError('VALIDATION', 'Invalid email address');
  if (password.length < 8) throw new AppError('VALIDATION', 'Admin password must be at least 8 characters');
  const hash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (existing) {
      await tx.updateTable('users').set({ is_admin: true, password_hash: hash, email_verified_at: new Date(), updated_at: new Date() }).where('id', '=', existing.id).execute();
      return { id: existing.id, created: false };
    }
    const row = await tx
      .insertInto('users')
      .values({ name: 'Administrator', email, username: await generateUsername(tx), password_hash: hash, is_admin: true, email_verified_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await team.onUserCreated(tx, row.id, null);
    return { id: row.id, created: true };
  });
}

/** ADMIN_EMAIL + ADMIN_PASSWORD at start: create an admin when none exists yet. */
export async function bootstrapAdmin(db: DB, email: string | undefined, password: string | undefined): Promise<boolean> {
  if (!email || !password) return false;
  const any = await db.selectFrom('users').select('id').where('is_admin', '=', true).executeTakeFirst();
  if (any) return false;
  await createAdmin(db, email, password);
  return true;
}
