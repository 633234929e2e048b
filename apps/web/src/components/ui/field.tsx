/**
 * Ties a field to its error for assistive technology: the input is marked invalid and described by
 * the message, so a screen reader reads the error when the field gets focus.
 */
export function invalidProps(id: string, error: string | undefined): { 'aria-invalid': boolean; 'aria-describedby': string | undefined } {
  return { 'aria-invalid': Boolean(error), 'aria-describedby': error ? `${id}-error` : undefined };
}

/** The message under a field; its id is the one `invalidProps` points at. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  );
}
