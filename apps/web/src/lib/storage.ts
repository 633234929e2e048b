/** Browser storage keys of the spec (section 3). Nothing else touches localStorage/sessionStorage. */
export const STORAGE_KEYS = {
  accessId: 'access_id',
  authToken: 'auth_token',
  isAdmin: 'is_admin',
  otpTimerExpiry: 'otp_timer_expiry',
} as const;
/**
 * `reset_access_id` lives for the tab only: a password-reset challenge should not outlive it.
 * `otp_locked` holds the access_id whose code was answered wrong too often, so a reload of
 * /verify-otp still says why Verify is off (the server refuses that code until a new one is sent).
 */
export const SESSION_KEYS = {
  socialUser: 'socialUser',
  resetAccessId: 'reset_access_id',
  otpLocked: 'otp_locked',
  /** where the sign-up/sign-in code and the reset code went, so their pages can name it (issue 32, item 21) */
  otpEmail: 'otp_email',
  resetEmail: 'reset_email',
} as const;

export const storage = {
  getToken: () => localStorage.getItem(STORAGE_KEYS.authToken),
  isAdmin: () => localStorage.getItem(STORAGE_KEYS.isAdmin) === 'true',
  setSession(token: string, isAdmin = false) {
    localStorage.setItem(STORAGE_KEYS.authToken, token);
    localStorage.setItem(STORAGE_KEYS.isAdmin, String(isAdmin));
  },
  clearSession() {
    localStorage.removeItem(STORAGE_KEYS.authToken);
    localStorage.removeItem(STORAGE_KEYS.isAdmin);
  },
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
  getOtpEmail: () => sessionStorage.getItem(SESSION_KEYS.otpEmail),
  setOtpEmail: (email: string) => sessionStorage.setItem(SESSION_KEYS.otpEmail, email),
  clearOtpEmail: () => sessionStorage.removeItem(SESSION_KEYS.otpEmail),
  getResetEmail: () => sessionStorage.getItem(SESSION_KEYS.resetEmail),
  setResetEmail: (email: string) => sessionStorage.setItem(SESSION_KEYS.resetEmail, email),
  clearResetEmail: () => sessionStorage.removeItem(SESSION_KEYS.resetEmail),
};
