/**
 * The spec's words for the login and sign-up buttons and answers, in one place: the app's pages say
 * them, and so do the scripts the build inlines into login.html and signup.html (prerender.tsx),
 * which must say the same thing before the app has loaded.
 */
export const AUTH_TEXTS = {
  loggingIn: 'Logging in...',
  creatingAccount: 'Creating Account...',
  loginSuccess: 'Login successful!',
  loginRefused: 'Login failed. Please check your credentials.',
  loginFailed: 'Login failed. Please try again.',
  /** Not the spec's: a held sign-up press given back when the app has not loaded in time (early-signup.ts). */
  stillLoading: 'The page is still loading. Check your connection, then press Create Account again.',
} as const;
