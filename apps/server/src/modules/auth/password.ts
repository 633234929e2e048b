import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id recommendation: 19 MiB memory, 2 iterations, 1 lane.
const PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password. With no stored hash (unknown e-mail, or a social-only account) it still
 * verifies against a dummy hash, so both cases take the same time as a wrong password.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
