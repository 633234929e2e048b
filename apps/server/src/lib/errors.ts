/** Typed application errors: services throw these; one handler turns them into HTTP answers. */
const STATUS = {
  VALIDATION: 400,
  BAD_REQUEST: 400,
  INSUFFICIENT_BALANCE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  MAINTENANCE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

/** A 400 that names the field, so the browser can show the message under it. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('VALIDATION', message, { [field]: message });
}
