import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors';

/**
 * A field sent as JSON text whose content has a schema (the spec's "extra" fields): a string on the
 * wire and in the OpenAPI document; parsing it checks the text is JSON of that shape.
 */
export function jsonText<T extends z.ZodType>(schema: T) {
  return z.string().refine((text) => {
    try {
      return schema.safeParse(JSON.parse(text)).success;
    } catch {
      return false;
    }
  }, 'must be JSON text of its documented shape');
}

/**
 * Who may call an endpoint: anyone, a signed-in user (bearer token), an admin, or the signer
 * process (its own bearer token, whose hash the server keeps; no user or admin token is one).
 */
export type Auth = 'public' | 'user' | 'admin' | 'signer';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint, defined once: the server registers its route from it, the OpenAPI document is
 * generated from it and the browser calls through it. `path` is relative to /api.
 */
export interface Contract {
  method: Method;
  path: string;
  auth: Auth;
  /** the feature; the OpenAPI tag */
  tag: string;
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** the success envelope's `data`; null when the answer carries none */
  data: z.ZodType | null;
  /** answers other than 200 and the failure envelope (e.g. a redirect, or a 503 with data) */
  responses?: Record<number, z.ZodType>;
  /** the error codes this endpoint's own rules answer with (errors.ts), listed in the OpenAPI document; every endpoint may also answer the transport and server codes */
  errors?: readonly ErrorCode[];
  /** left out of /api/docs (process-internal endpoints) */
  hidden?: boolean;
  /** the success answer is a file of this type, streamed, not the JSON envelope (CSV exports) */
  produces?: 'text/csv';
}

export const defineContract = <const C extends Contract>(c: C): C => c;

/** The URL path of a contract's endpoint, its `:name` parameters filled in (the browser's call and the server tests' inject). */
export function contractPath(c: Contract, params: Record<string, unknown> = {}): string {
  return `/api${c.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])))}`;
}

/** { success:false, code, message, errors? }: every failure (server design, section 2), `code` from the one table (errors.ts). */
export const ZFailure = z.object({
  success: z.literal(false),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});

/** The success envelope around a contract's data. */
export function envelopeOf(data: z.ZodType | null) {
  return data
    ? z.object({ success: z.literal(true), message: z.string().optional(), data })
    : z.object({ success: z.literal(true), message: z.string().optional() });
}

export const ZPagination = z.object({ total: z.number().int(), page: z.number().int(), perPage: z.number().int() });

/** One page of a list, as every paginated endpoint answers it. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: ZPagination });

/** Money as the server sends it: a number of USDT from microToNumber (at most 6 decimals, exact). */
export const ZMoney = z.number();
export const ZIsoTime = z.string();
export const ZId = z.string();

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What the server's handler returns for a contract (before serialization). */
export type DataIn<C extends Contract> = In<C['data']>;
/** What the browser receives in `data`. */
export type DataOut<C extends Contract> = Out<C['data']>;
/** What the browser passes: body, query and params as the request schemas accept them. */
export type InputOf<C extends Contract> = (C['body'] extends z.ZodType ? { body: z.input<C['body']> } : { body?: undefined }) &
  (C['query'] extends z.ZodType ? { query: z.input<C['query']> } : { query?: undefined }) &
  (C['params'] extends z.ZodType ? { params: z.input<C['params']> } : { params?: undefined });
/** What the server's handler reads after validation. */
export type Parsed<C extends Contract> = { Body: Out<C['body']>; Querystring: Out<C['query']>; Params: Out<C['params']> };
