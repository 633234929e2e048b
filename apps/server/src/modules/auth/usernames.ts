import { randomInt } from 'node:crypto';
import type { Executor } from '../../db/types';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

function candidate(): string {
  let out = '';
  for (let i = 0; i < 9; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** A fresh 9-character username (A–Z, 0–9), which is also the user's referral ID. */
export async function generateUsername(db: Executor): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const name = candidate();
    const taken = await db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirst();
    if (!taken) return name;
  }
  throw new Error('could not generate a unique username');
}
