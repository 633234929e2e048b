import { describe, expect, it } from 'vitest';
import { testDbKind } from '../../test/app';
import { useProcessPools } from '../../test/process-pools';
import { bootstrapAdmin, createAdmin } from './create-admin';

/**
 * Several server processes started at once with ADMIN_EMAIL all find no admin and all insert it:
 * one must win and the others promote its row, none may fail. Each "process" here has its own
 * pool on the same PostgreSQL schema, as separate servers would.
 */
describe.runIf(testDbKind === 'postgres')('admin bootstrap from several processes at once (PostgreSQL)', () => {
  const { main, procs } = useProcessPools(4, 2);

  it('bootstrapAdmin in four processes at once creates the admin once and fails none', async () => {
    const results = await Promise.all(procs.map((p) => bootstrapAdmin(p.db, 'root@example.test', 'Root-Password-1')));
    expect(results.filter(Boolean)).toHaveLength(1);
    const admins = await main.db.selectFrom('users').select(['email', 'is_admin']).execute();
    expect(admins).toEqual([{ email: 'root@example.test', is_admin: true }]);
    expect(await main.db.selectFrom('team_stats').select('user_id').execute()).toHaveLength(1);
  });

  it('createAdmin racing on one new e-mail: one creates, the rest promote, over 15 rounds', async () => {
    for (let round = 0; round < 15; round++) {
      const email = `race-${round}@example.test`;
      const results = await Promise.all(procs.map((p, i) => createAdmin(p.db, i % 2 ? email.toUpperCase() : email, `Password-${round}-${i}`)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
    }
    const count = await main.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where((eb) => eb(eb.fn('lower', ['email']), 'like', 'race-%'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(15);
  });
});
