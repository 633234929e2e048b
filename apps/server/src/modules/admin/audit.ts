import type { Executor } from '../../db/types';
import './table';
import { paginate } from '../../lib/paginate';

/** JSON that survives bigint values (ids, micro-units) by writing them as strings. */
function toJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Records who did what, to which thing, and the state before and after. Runs in the action's transaction. */
export async function audit(
  db: Executor,
  entry: { adminId: bigint | null; action: string; targetType?: string; targetId?: string | bigint; before?: unknown; after?: unknown },
): Promise<void> {
  await db
    .insertInto('admin_audit_log')
    .values({
      admin_id: entry.adminId,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_id: entry.targetId === undefined ? null : String(entry.targetId),
      before: toJson(entry.before),
      after: toJson(entry.after),
    })
    .execute();
}

export async function listAudit(db: Executor, page: number, perPage: number) {
  const { rows, total } = await paginate(db.selectFrom('admin_audit_log').leftJoin('users', 'users.id', 'admin_audit_log.admin_id'), page, perPage, (q) =>
    q
      .select([
        'admin_audit_log.id',
        'admin_audit_log.action',
        'admin_audit_log.target_type',
        'admin_audit_log.target_id',
        'admin_audit_log.before',
        'admin_audit_log.after',
        'admin_audit_log.created_at',
        'users.email as admin_email',
      ])
      .orderBy('admin_audit_log.id', 'desc'),
  );
  return {
    total,
    rows: rows.map((r) => ({
      id: String(r.id),
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      before: r.before,
      after: r.after,
      admin: r.admin_email,
      createdAt: r.created_at.toISOString(),
    })),
  };
}
