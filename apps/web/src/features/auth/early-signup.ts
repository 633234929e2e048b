/**
 * The sign-up form before the app's code has arrived (issue 51). signup.html carries the form,
 * pre-rendered at build time; on a slow phone network React hydrates it some ten seconds later.
 * The build inlines `earlySignup` into signup.html (build/prerender-pages.ts; the server allows it
 * by its hash), so from its first paint the form can be filled in and Create Account pressed:
 * - a press is held, never the browser's own submit (a GET with the password in the address), and
 *   the button says so ("Creating Account...") until the app takes it over;
 * - at the hand-over (lib/early-form.ts) the form goes back to what the build rendered, what was typed
 *   stays in the fields, and the app carries the press out once: its own checks of every field
 *   (the schema the server shares) and then the registration, as if pressed in the app.
 * Unlike the login it sends nothing itself: a sign-up's rules (the password's strength, the
 * confirmation, the terms, the referral ID) live in the app's schema, and a copy here would drift.
 *
 * `earlySignup` is sent as its source text: it must not use anything from outside its body (no
 * import, no helper), only its argument and the browser.
 */
import type { EarlyFormHandle } from '../../lib/early-form';

/**
 * How long a press is held for an app that has not loaded: longer than the slow network's whole
 * load (13 s measured on 2,000 ms / 50 KiB/s), short enough that a page whose code never arrives
 * does not say "Creating Account..." for ever.
 */
export const EARLY_SIGNUP_HOLD_MS = 30_000;

export interface EarlySignupConfig {
  /** the selector of the pre-rendered form (lib/early-form.ts EARLY_FORM_ATTRIBUTE) */
  form: string;
  /** the localStorage key of the session token (lib/storage.ts STORAGE_KEYS.authToken) */
  authTokenKey: string;
  /** the button's label while the press waits for the app (the spec's pending label) */
  pending: string;
  /** said when a press is given back because the app has not loaded in time */
  stillLoading: string;
  /** how long a press is held before it is given back (EARLY_SIGNUP_HOLD_MS) */
  giveBackAfterMs: number;
  /** the class of what the script says on the form (components/ui/form-field.tsx FORM_ALERT_CLASS) */
  noteClass: string;
}

export function earlySignup(config: EarlySignupConfig): void {
  const form = document.querySelector<HTMLFormElement>(config.form);
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  // A signed-in visitor is redirected by the app. /signup with a query (an invite's ref, a social
  // sign-in's return) never gets this page: the server sends app.html (plugins/web.ts QUERY_READERS)
  // and so does the service worker (its precache matches no query but utm_*).
  if (!form || !button || localStorage.getItem(config.authTokenKey)) return;
  const label = button.textContent;
  let pressed = false;
  let handedOver = false;
  let giveBack: ReturnType<typeof setTimeout> | undefined;
  let note: HTMLParagraphElement | null = null;
  const release = () => {
    clearTimeout(giveBack);
    note?.remove();
    note = null;
    button.textContent = label;
    button.removeAttribute('aria-busy');
  };
  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (pressed) return;
    release();
    pressed = true;
    button.textContent = config.pending;
    button.setAttribute('aria-busy', 'true');
    // The app's code may never arrive (a dropped connection): the press is given back and the
    // person told, rather than a button that says "Creating Account..." for ever.
    giveBack = setTimeout(() => {
      pressed = false;
      release();
      note = document.createElement('p');
      note.setAttribute('role', 'alert');
      note.className = config.noteClass;
      note.textContent = config.stillLoading;
      form.insertBefore(note, button);
    }, config.giveBackAfterMs);
  };
  form.addEventListener('submit', onSubmit);
  // The build renders Create Account disabled (until React has hydrated, a press would submit natively).
  button.disabled = false;
  const handle: EarlyFormHandle = {
    handOver() {
      if (!handedOver) {
        handedOver = true;
        form.removeEventListener('submit', onSubmit);
        release();
        button.disabled = true;
      }
      const waiting = pressed;
      pressed = false;
      return waiting;
    },
  };
  window.__earlyForm = handle;
}
