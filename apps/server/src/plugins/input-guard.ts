import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/** Finds the first string Postgres cannot store (a NUL byte) and names its field. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], path ? `${path}.${i}` : String(i));
      if (hit) return hit;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return path || '_';
      const hit = findNul(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * Input Postgres cannot store is a 400 naming the field, before any schema or handler sees it
 * (server design, section 9): a NUL byte in a text field used to end as a 500.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.body, request.query, request.params]) {
      const field = findNul(part, '');
      if (field) {
        const message = 'Invalid characters in input';
        done(new AppError('VALIDATION', message, field === '_' ? undefined : { [field]: message }));
        return;
      }
    }
    done();
  });
}
