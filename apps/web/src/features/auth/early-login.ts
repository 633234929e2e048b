/**
 * The login form before the app's code has arrived (issue 51). login.html carries the form,
 * pre-rendered at build time, but on a slow phone network (2,000 ms latency, 50 KiB/s) React
 * hydrates it some ten seconds later: until then Login did nothing. The build inlines
 * `earlyLogin` into login.html (build/prerender-pages.ts; the server allows it by its hash,
 * apps/server/src/plugins/web.ts), so the form works from its first paint:
 * - a press sends the login itself, the same request the app would send (same path, same body);
 * - an answer with a token signs in as the app does (useFinishLogin) and opens the account;
 * - a refusal, or no answer, is said on the form and Login works again;
 * - an answer that asks for more (the second factor, the e-mail code) waits for the app, which
 *   shows that step: it takes the answer through api-client (`take`) instead of asking again;
 * - "Forgot password?" carries the e-mail typed, as the app's link does.
 * Right before React hydrates the form, the app calls `handOver` (lib/early-form.ts): the form goes back
 * to what the build rendered (so React finds what it rendered), what was typed stays in the fields,
 * and a press still waiting is carried out by the app once.
 *
 * `earlyLogin` is sent as its source text: it must not use anything from outside its body (no
 * import, no helper), only its argument and the browser.
 */

import type { EarlyFormHandle } from '../../lib/early-form';

export interface EarlyLoginConfig {
  /** the selector of the pre-rendered form (lib/early-form.ts EARLY_FORM_ATTRIBUTE) */
  form: string;
  /** the path of "Forgot password?" (its link is in the form) */
  forgot: string;
  /** the API path of the login (the same the app calls) */
  api: string;
  /** localStorage keys of the session (lib/storage.ts STORAGE_KEYS), set as storage.setSession does */
  keys: { authToken: string; isAdmin: string; queryCache: string; sessionWorked: string };
  /** the spec's texts: the pending label, the success, a refusal without a server message, no answer */
  sending: string;
  success: string;
  refused: string;
  failed: string;
  /** the class of what the script says on the form (components/ui/form-field.tsx FORM_ALERT_CLASS) */
  noteClass: string;
}

/** The login answer's `data`, as far as the early handling reads it. */
interface EarlyAnswer {
  ok: boolean;
  message?: string;
  data?: { token?: string; is_admin?: boolean; requires_2fa?: boolean; access_id?: string };
}

export function earlyLogin(config: EarlyLoginConfig): void {
  const form = document.querySelector<HTMLFormElement>(config.form);
  const email = form?.querySelector<HTMLInputElement>('input[name="email"]');
  const password = form?.querySelector<HTMLInputElement>('input[name="password"]');
  const button = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  // A signed-in visitor is redirected by the app, not signed in again.
  if (!form || !email || !password || !button || localStorage.getItem(config.keys.authToken)) return;
  const label = button.textContent;
  let sent: { body: string; response: Promise<Response> } | null = null;
  let pressed = false;
  let busy = false;
  let handedOver = false;
  let note: HTMLParagraphElement | null = null;

  const say = (message: string | null) => {
    note?.remove();
    note = null;
    if (!message) return;
    note = document.createElement('p');
    note.setAttribute('role', 'alert');
    note.className = config.noteClass;
    note.textContent = message;
    form.insertBefore(note, button);
  };
  const ready = () => {
    busy = false;
    button.disabled = false;
    button.textContent = label;
  };
  /** Where useFinishLogin goes: the admin console, the page the guard came from (router state), or the dashboard. */
  const target = (isAdmin: boolean) => {
    const state = history.state as { usr?: { from?: unknown } } | null;
    const from = state?.usr?.from;
    return isAdmin ? '/admin/dashboard' : typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/dashboard';
  };

  const onSubmit = (event: Event) => {
    // Never the browser's own submit: a GET with the password in the address.
    event.preventDefault();
    if (busy) return;
    say(null);
    // The app's schema trims the e-mail; anything else it checks (an empty field, the format) it
    // says once it is ready, so the press waits for it.
    const values = { email: email.value.trim(), password: password.value };
    pressed = true;
    if (!values.email || !values.password) {
      (values.email ? password : email).focus();
      return;
    }
    busy = true;
    button.disabled = true;
    button.textContent = config.sending;
    const body = JSON.stringify(values);
    const response = fetch(config.api, { method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body });
    sent = { body, response };
    response
      // A clone: the body stays readable for the app, which may take this answer.
      .then((res) =>
        res
          .clone()
          .json()
          .then((json: Omit<EarlyAnswer, 'ok'>) => ({ ...json, ok: res.ok }) as EarlyAnswer),
      )
      .catch((): EarlyAnswer | null => null)
      .then((answer) => {
        if (handedOver || sent?.response !== response) return;
        const data = answer?.ok ? answer.data : undefined;
        if (data?.token) {
          // storage.setSession: the previous user's cached answers go with the previous session.
          localStorage.removeItem(config.keys.queryCache);
          localStorage.removeItem(config.keys.sessionWorked);
          localStorage.setItem(config.keys.authToken, data.token);
          localStorage.setItem(config.keys.isAdmin, String(data.is_admin ?? false));
          button.textContent = config.success;
          location.replace(target(data.is_admin ?? false));
        } else if (data && (data.requires_2fa || data.access_id)) {
          // The next step is the app's to show: it takes this answer once it is ready.
        } else {
          // Told here: the answer is the person's, not the app's to repeat later.
          sent = null;
          pressed = false;
          ready();
          say(answer ? answer.message || config.refused : config.failed);
        }
      });
  };

  // "Forgot password?": the app's link carries the e-mail typed so far in its router state (never
  // in the address); the browser's own navigation would drop it. The same history entry the router
  // writes (its state under `usr`, with an index), then the page loads on it, and the app finds the
  // e-mail there as if the link had been followed inside it.
  const onForgot = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>(`a[href="${config.forgot}"]`);
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const typed = email.value.trim();
    const idx = (history.state as { idx?: number } | null)?.idx ?? 0;
    history.pushState({ usr: typed ? { email: typed } : null, key: Math.random().toString(36).slice(2, 10), idx: idx + 1 }, '', config.forgot);
    location.reload();
  };

  form.addEventListener('submit', onSubmit);
  form.addEventListener('click', onForgot);
  // The build renders Login disabled (until React has hydrated, a press would submit natively).
  ready();
  const handle: Required<EarlyFormHandle> = {
    take(path, body) {
      if (!sent || path !== config.api || body !== sent.body) return null;
      const { response } = sent;
      sent = null;
      return response;
    },
    handOver() {
      if (!handedOver) {
        handedOver = true;
        form.removeEventListener('submit', onSubmit);
        form.removeEventListener('click', onForgot);
        say(null);
        button.textContent = label;
        button.disabled = true;
      }
      const waiting = pressed;
      pressed = false;
      return waiting;
    },
  };
  window.__earlyForm = handle;
}
