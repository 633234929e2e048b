import clsx from 'clsx';
import { forwardRef, type InputHTMLAttributes, type ReactNode } from 'react';
import type { FieldValues, Path, RegisterOptions, UseFormReturn } from 'react-hook-form';
import { PasswordInput } from './password-input';
import { StrengthMeter } from './strength-meter';

/** What frames a form control: its label, what stands beside and under it, its error and hint. */
export interface FieldFrameProps {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  /** Beside the label, at the right (a link, an "All" button). */
  labelAside?: ReactNode;
  /** Under the control, above the error (a strength meter). */
  below?: ReactNode;
  /** A line under the error that describes the field; its id is `${id}-hint`. */
  hint?: ReactNode;
  /** Under the error and the hint (a status line, a balance). */
  after?: ReactNode;
  /** Ids of other elements that describe the field, read after its error and hint. */
  describedBy?: string;
  /** The error is announced as soon as it appears (role="alert"). */
  alert?: boolean;
}

/**
 * Ties a control to its error and hint for assistive technology: the control is marked invalid and
 * described by the message (then the hint and any other ids), so a screen reader reads them on focus.
 */
export function fieldAria(id: string, error: string | undefined, more: (string | false | undefined)[] = []) {
  const ids = [error ? `${id}-error` : undefined, ...more].filter(Boolean);
  return { 'aria-invalid': Boolean(error), 'aria-describedby': ids.length ? ids.join(' ') : undefined };
}

/** The message under a field; its id is the one `fieldAria` points at. */
export function FieldError({ id, error, alert }: { id: string; error: string | undefined; alert?: boolean | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} role={alert ? 'alert' : undefined} className="field-error">
      {error}
    </p>
  );
}

/** How an error about the whole form looks; the early scripts (features/auth/early-*.ts) get it in their configs, as they cannot import. */
export const FORM_ALERT_CLASS = 'rounded-xl border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-300';

/** An error about the whole form (not one field), said above its button; nothing when there is none. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className={FORM_ALERT_CLASS}>
      {message}
    </p>
  );
}

/** The frame of one field; `children` is the control, which carries `fieldAria` itself. */
export function FieldFrame({
  id,
  label,
  error,
  labelAside,
  below,
  hint,
  after,
  alert,
  children,
}: Omit<FieldFrameProps, 'describedBy'> & { children: ReactNode }) {
  const labelElement = (
    <label htmlFor={id} className="label">
      {label}
    </label>
  );
  return (
    <div>
      {labelAside ? (
        <div className="flex items-center justify-between">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      {children}
      {below}
      <FieldError id={id} error={error} alert={alert} />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {after}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & FieldFrameProps;

function split({ id, label, error, labelAside, below, hint, after, describedBy, alert, ...input }: InputProps) {
  return {
    frame: { id, label, error, labelAside, below, hint, after, alert },
    input: { ...input, id, ...fieldAria(id, error, [hint ? `${id}-hint` : undefined, describedBy]) },
  };
}

/** A labelled text input with its error (class `input` plus `className`). */
export const TextField = forwardRef<HTMLInputElement, InputProps>(function TextField(props, ref) {
  const { frame, input } = split(props);
  return (
    <FieldFrame {...frame}>
      <input ref={ref} {...input} className={clsx('input', input.className)} />
    </FieldFrame>
  );
});

/** A labelled password input with its show/hide toggle and its error; `strength` (the value typed) adds the strength meter. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<InputProps, 'className'> & { strength?: string }>(function PasswordField(
  { strength, ...props },
  ref,
) {
  const { frame, input } = split(props);
  return (
    <FieldFrame {...frame} below={strength === undefined ? frame.below : <StrengthMeter password={strength} />}>
      <PasswordInput ref={ref} {...input} />
    </FieldFrame>
  );
});

/** A new password: 6 to 30 characters, with the strength meter over `strength` (the value typed). */
export const NewPasswordField = forwardRef<HTMLInputElement, Omit<InputProps, 'className'> & { strength: string }>(function NewPasswordField(props, ref) {
  return <PasswordField ref={ref} autoComplete="new-password" placeholder="6 to 30 characters" {...props} />;
});

/** The e-mailed code: digits only, large and spaced. */
export const OtpField = forwardRef<HTMLInputElement, InputProps>(function OtpField({ className, ...props }, ref) {
  return (
    <TextField
      ref={ref}
      className={className ?? 'text-center font-mono text-2xl tracking-[0.5em]'}
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="••••••"
      {...props}
    />
  );
});

/** A two-factor code: six digits from the app, or a recovery code (up to 32 characters); `large` centred as on the sign-in step. */
export const TwoFactorCodeField = forwardRef<HTMLInputElement, Omit<InputProps, 'className'> & { large?: boolean }>(function TwoFactorCodeField(
  { large, ...props },
  ref,
) {
  return (
    <TextField
      ref={ref}
      className={large ? 'text-center font-mono text-xl tracking-[0.3em]' : 'font-mono tracking-widest'}
      autoComplete="one-time-code"
      autoCapitalize="off"
      spellCheck={false}
      maxLength={32}
      placeholder="123456"
      {...props}
    />
  );
});

/**
 * Binds fields of a react-hook-form form: `field(name)` is the registration, the id (the name; pass
 * `id` after it to change it) and the field's error message, to spread on a field above.
 */
export function fieldsOf<T extends FieldValues, C, O>(form: UseFormReturn<T, C, O>) {
  return (name: Path<T>, options?: RegisterOptions<T, Path<T>>) => ({
    id: name as string,
    error: (form.formState.errors as Partial<Record<string, { message?: string }>>)[name]?.message,
    ...form.register(name, options),
  });
}
