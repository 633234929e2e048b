/**
 * The app's side of a form that works before the app's code has arrived (issue 51): login.html and
 * signup.html carry their form, pre-rendered at build time, and an inline script that makes it
 * usable on a slow phone network, where React hydrates it some ten seconds after the first paint
 * (features/auth/early-login.ts sends the login itself, early-signup.ts holds a press for the app). The form is
 * marked `data-early-form`; the script leaves its handle on `window.__earlyForm`.
 * Right before React hydrates the form, the app calls `handOverEarlyForm`: the script stops, the
 * form goes back to what the build rendered (so React finds what it rendered), what was typed stays
 * in the fields, and a press still waiting is carried out by the page once (`takeWaitingPress`).
 */

export interface EarlyFormHandle {
  /** The answer to a request the script sent early, when `body` is what was sent to `path`: handed out once (login only). */
  take?(path: string, body: string): Promise<Response> | null;
  /** Stops the early handling and puts the form back as the build rendered it; true when a press waits for the app. */
  handOver(): boolean;
}

declare global {
  interface Window {
    __earlyForm?: EarlyFormHandle;
  }
}

/** The attribute that marks a pre-rendered form with an early script (its value names the form). */
export const EARLY_FORM_ATTRIBUTE = 'data-early-form';

let pressWaiting = false;

/** Ends the early handling of the page's pre-rendered form (start.tsx, right before hydrating it). */
export function handOverEarlyForm(): void {
  pressWaiting = window.__earlyForm?.handOver() ?? false;
}

/** A press made before the app was ready, to carry out now: true once. */
export function takeWaitingPress(): boolean {
  const waiting = pressWaiting;
  pressWaiting = false;
  return waiting;
}

/** The answer to a request the early script already sent (api-client): the same path and body, once. */
export function takeEarlyAnswer(path: string, body: string): Promise<Response> | null {
  return window.__earlyForm?.take?.(path, body) ?? null;
}

/**
 * What is in the pre-rendered form's fields, for the page's first values: hydration keeps what was
 * typed before it (react-hook-form writes its default values into the fields it registers). A text
 * field gives its text, a checkbox whether it is ticked; a field the form does not have keeps the
 * page's own default, and so does every field when the page is rendered afresh (no pre-rendered form).
 */
export function typedBeforeHydration<T extends Record<string, string | boolean>>(defaults: T): T {
  const form = typeof document === 'undefined' ? null : document.querySelector<HTMLFormElement>(`form[${EARLY_FORM_ATTRIBUTE}]`);
  if (!form) return defaults;
  const typed: Record<string, string | boolean> = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const input = form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    if (input) typed[name] = typeof fallback === 'boolean' ? input.checked : input.value;
  }
  return typed as T;
}
