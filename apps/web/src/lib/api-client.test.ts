import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 47: the browser dispatches on the failure's `code` (the one table, @app/core/errors), never
 * on the status: only MAINTENANCE goes to /maintenance; an outage (UNAVAILABLE, PROVIDER_UNAVAILABLE,
 * or a proxy's 502/503/504 with no code) says so with Retry and leaves the screen where it is.
 * Before, every 503 went to /maintenance.
 */
const toasts: { kind: string; message: string; data?: { id?: string; action?: { label: string; onClick: () => void } } }[] = [];
vi.mock('./toast', () => ({
  toast: {
    error: (message: string, data?: object) => void toasts.push({ kind: 'error', message, data: data as never }),
    success: (message: string) => void toasts.push({ kind: 'success', message }),
    info: (message: string) => void toasts.push({ kind: 'info', message }),
  },
}));
vi.mock('./storage', () => ({
  storage: { getToken: () => null, sessionWorked: () => false, clearSession: () => undefined, markSessionWorked: () => undefined },
}));
vi.mock('./early-requests', () => ({ takeEarlyResponse: () => null }));

const { request, setApiNavigator, setOutageRetry, ApiError, OUTAGE_MESSAGE } = await import('./api-client');

function answer(status: number, body: unknown): void {
  vi.stubGlobal('fetch', () => Promise.resolve(new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })));
}

describe('failures are dispatched on their code', () => {
  const moves: string[] = [];
  beforeEach(() => {
    toasts.length = 0;
    moves.length = 0;
    vi.stubGlobal('window', { location: { origin: 'http://localhost', pathname: '/withdrawal' } });
    setApiNavigator((to) => void moves.push(to));
  });
  afterEach(() => vi.unstubAllGlobals());

  it('MAINTENANCE goes to /maintenance with the spec’s toast', async () => {
    answer(503, { success: false, code: 'MAINTENANCE', message: 'Server is under maintenance' });
    const err = await request('GET', '/api/user/wallet').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(moves).toEqual(['/maintenance']);
    expect(toasts.map((t) => t.message)).toEqual(['Server is under maintenance']);
  });

  it('a database outage (503 UNAVAILABLE) keeps the screen and offers Retry, never maintenance', async () => {
    answer(503, { success: false, code: 'UNAVAILABLE', message: 'Service temporarily unavailable' });
    let retried = 0;
    setOutageRetry(() => void retried++);
    const err = (await request('GET', '/api/user/wallet').catch((e: unknown) => e)) as InstanceType<typeof ApiError>;
    expect(moves).toEqual([]);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.isOutage).toBe(true);
    expect(toasts.map((t) => t.message)).toEqual([OUTAGE_MESSAGE]);
    expect(OUTAGE_MESSAGE).toBe("We can't reach the server right now");
    toasts[0]!.data!.action!.onClick();
    expect(retried).toBe(1);
  });

  it('a provider outage is told by the screen that asked; a proxy’s 502 page with no code is an outage', async () => {
    answer(503, { success: false, code: 'PROVIDER_UNAVAILABLE', message: 'Payment provider is unavailable. Please try again later.' });
    const provider = (await request('POST', '/api/payments/create', {}).catch((e: unknown) => e)) as InstanceType<typeof ApiError>;
    expect(provider.isOutage).toBe(true);
    expect(provider.message).toBe('Payment provider is unavailable. Please try again later.');
    expect(toasts).toEqual([]);
    answer(502, '<html>Bad gateway</html>');
    const err = (await request('GET', '/api/user/wallet').catch((e: unknown) => e)) as InstanceType<typeof ApiError>;
    expect(err.isOutage).toBe(true);
    expect(moves).toEqual([]);
    expect(toasts.map((t) => t.message)).toEqual([OUTAGE_MESSAGE]);
  });

  it('a refusal keeps its code and field errors and raises nothing global', async () => {
    answer(400, { success: false, code: 'INVALID_2FA', message: 'Invalid two-factor code', errors: { totp_code: 'Invalid two-factor code' } });
    const err = (await request('POST', '/api/withdraw/create', {}).catch((e: unknown) => e)) as InstanceType<typeof ApiError>;
    expect(err.code).toBe('INVALID_2FA');
    expect(err.errors).toEqual({ totp_code: 'Invalid two-factor code' });
    expect(err.isOutage).toBe(false);
    expect(moves).toEqual([]);
    expect(toasts).toEqual([]);
  });
});
