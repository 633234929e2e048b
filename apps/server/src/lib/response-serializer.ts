import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/** An answer that does not match its contract (only raised when answers are checked, i.e. in tests). */
export class ResponseContractError extends Error {
  constructor(route: string, detail: string) {
    super(`${route}: the answer does not match its contract: ${detail}`);
  }
}

type Stringify = (data: unknown) => string;
type Compile = (args: { schema: unknown; method: string; url: string; httpStatus?: string | undefined }) => Stringify;

/**
 * Fastify's serializer for every response schema: the contract's zod schema as JSON Schema, given to
 * fast-json-stringify (faster than JSON.stringify, and nothing outside the contract leaks out).
 * With `check` (tests), each answer is also parsed with the zod schema and compared with what
 * JSON.stringify would have sent, so a wrong type or a field the contract lacks fails the request.
 */
export function contractSerializer(check: boolean): Compile {
  return ({ schema, method, url, httpStatus }) => {
    const zodSchema = schema instanceof z.ZodType ? schema : undefined;
    const stringify = zodSchema ? compiled(zodSchema) : fastJson(schema as Parameters<typeof fastJson>[0]);
    if (!check || !zodSchema) return stringify;
    const where = `${method} ${url} ${httpStatus ?? ''}`;
    return (data) => {
      const parsed = zodSchema.safeParse(data);
      if (!parsed.success) throw report(where, z.prettifyError(parsed.error));
      const out = stringify(data);
      if (!isDeepStrictEqual(JSON.parse(out), JSON.parse(JSON.stringify(data))))
        throw report(where, `fields outside the contract: ${JSON.stringify(data).slice(0, 500)}`);
      return out;
    };
  };
}

// A contract's schemas are module constants, and many routes share one (the error answers): each is
// compiled once per process, not once per route and app (a test worker builds an app per test file).
const stringifiers = new WeakMap<z.ZodType, Stringify>();
function compiled(schema: z.ZodType): Stringify {
  let stringify = stringifiers.get(schema);
  if (!stringify) {
    stringify = fastJson(z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Parameters<typeof fastJson>[0]);
    stringifiers.set(schema, stringify);
  }
  return stringify;
}

function report(where: string, detail: string): ResponseContractError {
  const err = new ResponseContractError(where, detail);
  // Tests run without a logger: say why the request failed where the test output shows it.
  process.stderr.write(`${err.message}\n`);
  return err;
}
