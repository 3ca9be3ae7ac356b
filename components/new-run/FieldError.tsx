/** The inline error under a field (`field-error-{dotted.key}`), or nothing. */
export function FieldError({ field, message }: { field: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="mt-0.5 text-xs text-red-700" role="alert" data-testid={`field-error-${field}`}>
      {message}
    </p>
  );
}
