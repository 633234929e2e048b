import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Finds the first string Postgres cannot store (a NUL byte) and names its field. Walks with its own
 * stack, not by recursion: a deeply nested body (issue 29, finding 4) overflowed the call stack.
 */
export function findNul(root: unknown): string | undefined {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || '_';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path ? `${path}.${i}` : String(i)]);
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [k] of entries) if (k.includes('\u0000')) return path || '_';
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], path ? `${path}.${entries[i]![0]}` : entries[i]![0]]);
    }
  }
  return undefined;
}

/** How deep a JSON text nests arrays and objects, counted without parsing it (strings skipped). */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** No route takes a body nested deeper than this; far below what any parser or walk could choke on. */
export const MAX_JSON_DEPTH = 32;

/**
 * Input Postgres cannot store is a 400 naming the field, before any schema or handler sees it
 * (server design, section 9): a NUL byte in a text field used to end as a 500.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.body, request.query, request.params]) {
      const field = findNul(part);
      if (field) {
        const message = 'Invalid characters in input';
        done(new AppError('VALIDATION', message, field === '_' ? undefined : { [field]: message }));
        return;
      }
    }
    done();
  });
}
