// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORM_ALERT_CLASS } from '../../components/ui/form-field';
import { handOverEarlyForm, takeEarlyAnswer, takeWaitingPress, typedBeforeHydration } from '../../lib/early-form';
import { AUTH_TEXTS } from './auth-texts';
import { earlyLogin, type EarlyLoginConfig } from './early-login';
import { EARLY_SIGNUP_HOLD_MS, earlySignup, type EarlySignupConfig } from './early-signup';

const config: EarlyLoginConfig = {
  form: 'form[data-early-form="login"]',
  forgot: '/forgot-password',
  api: '/api/auth/login',
  keys: { authToken: 'auth_token', isAdmin: 'is_admin', queryCache: 'query_cache', sessionWorked: 'session_worked' },
  sending: AUTH_TEXTS.loggingIn,
  success: AUTH_TEXTS.loginSuccess,
  refused: AUTH_TEXTS.loginRefused,
  failed: AUTH_TEXTS.loginFailed,
  noteClass: FORM_ALERT_CLASS,
};

/** login.html's form as the build renders it: Login disabled until someone makes it work. */
function renderForm(): { form: HTMLFormElement; button: HTMLButtonElement } {
  document.body.innerHTML =
    '<form data-early-form="login"><input name="email" type="email"/><input name="password" type="password"/><button type="submit" disabled>Login</button></form>';
  return { form: document.querySelector('form')!, button: document.querySelector('button')! };
}
const type = (name: string, value: string) => (document.querySelector<HTMLInputElement>(`input[name="${name}"]`)!.value = value);
const press = (form: HTMLFormElement) => form.dispatchEvent(new Event('submit', { cancelable: true }));

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.__earlyForm;
  history.replaceState(null, '', '/');
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('early-login: login.html before the app has loaded (issue 51)', () => {
  it('enables Login, sends one login per press, and hands that answer to the same request once', () => {
    const fetch = vi.fn(() => new Promise<Response>(() => undefined));
    vi.stubGlobal('fetch', fetch);
    const { form, button } = renderForm();
    earlyLogin(config);
    expect(button.disabled).toBe(false);
    type('email', ' a@b.co ');
    type('password', 'Secret1!');
    expect(press(form)).toBe(false); // the browser's own submit (a GET with the password) never happens
    press(form); // a second press while the first is on its way sends nothing more
    expect(fetch).toHaveBeenCalledTimes(1);
    const body = JSON.stringify({ email: 'a@b.co', password: 'Secret1!' });
    expect(fetch).toHaveBeenCalledWith('/api/auth/login', expect.objectContaining({ method: 'POST', body }));
    expect(button.textContent).toBe('Logging in...');
    expect(takeEarlyAnswer('/api/auth/login', JSON.stringify({ email: 'a@b.co', password: 'other' }))).toBeNull();
    expect(takeEarlyAnswer('/api/auth/login', body)).not.toBeNull();
    expect(takeEarlyAnswer('/api/auth/login', body)).toBeNull();
  });

  it('hands the form back as the build rendered it, keeps what was typed, and the waiting press is carried out once', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    );
    const { form, button } = renderForm();
    earlyLogin(config);
    type('email', 'a@b.co');
    type('password', 'Secret1!');
    press(form);
    handOverEarlyForm();
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe('Login');
    expect(typedBeforeHydration({ email: '', password: '' })).toEqual({ email: 'a@b.co', password: 'Secret1!' });
    // StrictMode runs the page's effect twice: the press is still carried out once.
    expect(takeWaitingPress()).toBe(true);
    expect(takeWaitingPress()).toBe(false);
    // After the hand-over a press is the app's: the early script sends nothing.
    press(form);
    expect(vi.mocked(fetch)).toHaveBeenCalledTimes(1);
  });

  it('says a refusal on the form and lets the person try again (nothing waits for the app)', async () => {
    const answer = { success: false, code: 'UNAUTHENTICATED', message: 'Invalid email or password' };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(answer), { status: 401 })),
    );
    const { form, button } = renderForm();
    earlyLogin(config);
    type('email', 'a@b.co');
    type('password', 'wrong');
    press(form);
    await vi.waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('Invalid email or password'));
    expect(button.disabled).toBe(false);
    expect(button.textContent).toBe('Login');
    handOverEarlyForm();
    expect(takeWaitingPress()).toBe(false);
    expect(document.querySelector('[role="alert"]')).toBeNull();
  });

  it('"Forgot password?" before the app carries the e-mail typed, in the router\'s own state and never in the address', () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload, pathname: '/login', search: '' });
    document.body.innerHTML =
      '<form data-early-form="login"><input name="email" type="email"/><a href="/forgot-password"><span>Forgot password?</span></a>' +
      '<input name="password" type="password"/><button type="submit" disabled>Login</button></form>';
    earlyLogin(config);
    type('email', ' ann@example.com ');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    document.querySelector('span')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(window.history.state).toMatchObject({ usr: { email: 'ann@example.com' }, idx: 1 });
    expect(new URL(document.URL).pathname).toBe('/forgot-password');
    // Once the app has the form, the link is the app's.
    handOverEarlyForm();
    const after = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    document.querySelector('span')!.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a signed-in visitor (the app redirects them)', () => {
    localStorage.setItem('auth_token', 't');
    const { button } = renderForm();
    earlyLogin(config);
    expect(button.disabled).toBe(true);
    expect(window.__earlyForm).toBeUndefined();
  });
});

/** signup.html's form as the build renders it: Create Account disabled until someone makes it work. */
function renderSignupForm(): { form: HTMLFormElement; button: HTMLButtonElement } {
  document.body.innerHTML =
    '<form data-early-form="signup"><input name="name"/><input name="email" type="email"/><input name="password" type="password"/>' +
    '<input name="confirmPassword" type="password"/><input name="referral_id"/><input name="terms" type="checkbox"/>' +
    '<button type="submit" disabled>Create Account</button></form>';
  return { form: document.querySelector('form')!, button: document.querySelector('button')! };
}
const signupConfig: EarlySignupConfig = {
  form: 'form[data-early-form="signup"]',
  authTokenKey: 'auth_token',
  pending: AUTH_TEXTS.creatingAccount,
  stillLoading: AUTH_TEXTS.stillLoading,
  giveBackAfterMs: EARLY_SIGNUP_HOLD_MS,
  noteClass: FORM_ALERT_CLASS,
};
const signupDefaults = { name: '', email: '', password: '', confirmPassword: '', referral_id: '', terms: false };

describe('early-signup: signup.html before the app has loaded (issue 51)', () => {
  it('enables Create Account, holds a press (never the native submit, nothing sent) and says it waits', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { form, button } = renderSignupForm();
    earlySignup(signupConfig);
    expect(button.disabled).toBe(false);
    type('name', 'Ann');
    expect(press(form)).toBe(false);
    expect(button.textContent).toBe('Creating Account...');
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('hands the form back as the build rendered it with every field typed and the tick kept; the press is carried out once', () => {
    const { form, button } = renderSignupForm();
    earlySignup(signupConfig);
    const typed = { name: 'Ann Lee', email: 'ann@example.com', password: 'Secret1!', confirmPassword: 'Secret1!', referral_id: 'AB12CD34E' };
    for (const [name, value] of Object.entries(typed)) type(name, value);
    document.querySelector<HTMLInputElement>('input[name="terms"]')!.checked = true;
    press(form);
    handOverEarlyForm();
    expect(button.disabled).toBe(true);
    expect(button.textContent).toBe('Create Account');
    expect(button.hasAttribute('aria-busy')).toBe(false);
    expect(typedBeforeHydration(signupDefaults)).toEqual({ ...typed, terms: true });
    expect(takeWaitingPress()).toBe(true);
    expect(takeWaitingPress()).toBe(false);
    // After the hand-over a press is the app's: the script no longer holds it.
    expect(press(form)).toBe(true);
  });

  it('gives a held press back, and says why, when the app has not loaded in time; a press after that is held again', () => {
    vi.useFakeTimers();
    try {
      const { form, button } = renderSignupForm();
      earlySignup(signupConfig);
      press(form);
      vi.advanceTimersByTime(EARLY_SIGNUP_HOLD_MS - 1);
      expect(button.textContent).toBe('Creating Account...');
      vi.advanceTimersByTime(1);
      expect(button.textContent).toBe('Create Account');
      expect(button.hasAttribute('aria-busy')).toBe(false);
      expect(button.disabled).toBe(false);
      expect(form.querySelector('[role="alert"]')?.textContent).toBe(AUTH_TEXTS.stillLoading);
      // Said as the app says a form's error: the same look.
      expect(form.querySelector('[role="alert"]')?.className).toBe(FORM_ALERT_CLASS);
      // Given back: an app that loads now does not carry out a press the person was told was dropped.
      expect(window.__earlyForm?.handOver()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds a second press made after the first was given back, and the hand-over clears what was said', () => {
    vi.useFakeTimers();
    try {
      const { form, button } = renderSignupForm();
      earlySignup(signupConfig);
      press(form);
      vi.advanceTimersByTime(EARLY_SIGNUP_HOLD_MS);
      press(form);
      expect(button.textContent).toBe('Creating Account...');
      expect(form.querySelector('[role="alert"]')).toBeNull();
      press(form);
      vi.advanceTimersByTime(EARLY_SIGNUP_HOLD_MS - 1);
      handOverEarlyForm();
      expect(takeWaitingPress()).toBe(true);
      vi.advanceTimersByTime(EARLY_SIGNUP_HOLD_MS);
      // The timer died with the hand-over: nothing is said over the app's form.
      expect(form.querySelector('[role="alert"]')).toBeNull();
      expect(button.textContent).toBe('Create Account');
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the form to the app when the visitor is signed in', () => {
    localStorage.setItem('auth_token', 't');
    const { button } = renderSignupForm();
    earlySignup(signupConfig);
    expect(button.disabled).toBe(true);
    expect(window.__earlyForm).toBeUndefined();
  });

  it('gives the page its own defaults when there is no pre-rendered form (a fresh render)', () => {
    document.body.innerHTML = '<div id="root"></div>';
    expect(typedBeforeHydration({ ...signupDefaults, referral_id: 'AB12CD34E' })).toEqual({ ...signupDefaults, referral_id: 'AB12CD34E' });
  });
});
