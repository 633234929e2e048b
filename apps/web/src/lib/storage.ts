/**
 * Browser storage keys of the spec (section 3), `session_worked` (a flag), and `query_cache`: the signed-in user's last
 * dashboard and wallet answers, kept for offline use (lib/query-persistence.ts, issue 32). It holds
 * no token or secret, belongs to the session in `auth_token`, and goes with it (sign-in, sign-out,
 * a 401). Nothing else touches localStorage/sessionStorage.
 */
export const STORAGE_KEYS = {
  accessId: 'access_id',
  authToken: 'auth_token',
  isAdmin: 'is_admin',
  otpTimerExpiry: 'otp_timer_expiry',
  queryCache: 'query_cache',
  /** '1' once the server accepted this device's `auth_token`: a later 401 ended a real session (api-client.ts). */
  sessionWorked: 'session_worked',
} as const;
/**
 * `reset_access_id` lives for the tab only: a password-reset challenge should not outlive it.
 * `otp_locked` holds the access_id whose code was answered wrong too often, so a reload of
 * /verify-otp still says why Verify is off (the server refuses that code until a new one is sent).
 * `otp_delayed` holds the access_id whose code the server could not mail yet (its mail server was
 * down), so /verify-otp says the code will come late, after a reload too.
 */
export const SESSION_KEYS = {
  socialUser: 'socialUser',
  resetAccessId: 'reset_access_id',
  otpLocked: 'otp_locked',
  /** where the sign-up/sign-in code and the reset code went, so their pages can name it (issue 32, item 21) */
  otpEmail: 'otp_email',
  resetEmail: 'reset_email',
  /** the access_id whose code the mail server did not take yet (issue 30) */
  otpDelayed: 'otp_delayed',
} as const;

export const storage = {
  getToken: () => localStorage.getItem(STORAGE_KEYS.authToken),
  isAdmin: () => localStorage.getItem(STORAGE_KEYS.isAdmin) === 'true',
  setSession(token: string, isAdmin = false) {
    localStorage.removeItem(STORAGE_KEYS.queryCache);
    localStorage.removeItem(STORAGE_KEYS.sessionWorked);
    localStorage.setItem(STORAGE_KEYS.authToken, token);
    localStorage.setItem(STORAGE_KEYS.isAdmin, String(isAdmin));
  },
  clearSession() {
    localStorage.removeItem(STORAGE_KEYS.authToken);
    localStorage.removeItem(STORAGE_KEYS.isAdmin);
    localStorage.removeItem(STORAGE_KEYS.queryCache);
    localStorage.removeItem(STORAGE_KEYS.sessionWorked);
  },
  sessionWorked: () => localStorage.getItem(STORAGE_KEYS.sessionWorked) === '1',
  markSessionWorked: () => localStorage.setItem(STORAGE_KEYS.sessionWorked, '1'),
  getQueryCache: () => localStorage.getItem(STORAGE_KEYS.queryCache),
  setQueryCache: (json: string) => localStorage.setItem(STORAGE_KEYS.queryCache, json),
  getAccessId: () => localStorage.getItem(STORAGE_KEYS.accessId),
  setAccessId: (id: string) => localStorage.setItem(STORAGE_KEYS.accessId, id),
  clearAccessId: () => localStorage.removeItem(STORAGE_KEYS.accessId),
  getOtpExpiry: () => Number(localStorage.getItem(STORAGE_KEYS.otpTimerExpiry) ?? 0),
  setOtpExpiry: (epochMs: number) => localStorage.setItem(STORAGE_KEYS.otpTimerExpiry, String(epochMs)),
  clearOtpExpiry: () => localStorage.removeItem(STORAGE_KEYS.otpTimerExpiry),
  getSocialUser: <T>(): T | null => {
    const raw = sessionStorage.getItem(SESSION_KEYS.socialUser);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setSocialUser: (user: unknown) => sessionStorage.setItem(SESSION_KEYS.socialUser, JSON.stringify(user)),
  clearSocialUser: () => sessionStorage.removeItem(SESSION_KEYS.socialUser),
  getResetAccessId: () => sessionStorage.getItem(SESSION_KEYS.resetAccessId),
  setResetAccessId: (id: string) => sessionStorage.setItem(SESSION_KEYS.resetAccessId, id),
  clearResetAccessId: () => sessionStorage.removeItem(SESSION_KEYS.resetAccessId),
  isOtpLocked: (accessId: string | null) => accessId !== null && sessionStorage.getItem(SESSION_KEYS.otpLocked) === accessId,
  setOtpLocked: (accessId: string) => sessionStorage.setItem(SESSION_KEYS.otpLocked, accessId),
  clearOtpLocked: () => sessionStorage.removeItem(SESSION_KEYS.otpLocked),
  isOtpDelayed: (accessId: string | null) => accessId !== null && sessionStorage.getItem(SESSION_KEYS.otpDelayed) === accessId,
  setOtpDelayed: (accessId: string) => sessionStorage.setItem(SESSION_KEYS.otpDelayed, accessId),
  clearOtpDelayed: () => sessionStorage.removeItem(SESSION_KEYS.otpDelayed),
  getOtpEmail: () => sessionStorage.getItem(SESSION_KEYS.otpEmail),
  setOtpEmail: (email: string) => sessionStorage.setItem(SESSION_KEYS.otpEmail, email),
  clearOtpEmail: () => sessionStorage.removeItem(SESSION_KEYS.otpEmail),
  getResetEmail: () => sessionStorage.getItem(SESSION_KEYS.resetEmail),
  setResetEmail: (email: string) => sessionStorage.setItem(SESSION_KEYS.resetEmail, email),
  clearResetEmail: () => sessionStorage.removeItem(SESSION_KEYS.resetEmail),
};
