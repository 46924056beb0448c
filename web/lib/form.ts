/**
 * The one bridge from the server's `{ error: { issues } }` to react-hook-form: each issue's first
 * path segment names the field (the forms use the contracts' field names). Client-side checks run
 * through zodResolver over the same contracts, so both sides show the same Swedish messages.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api';

/** Shows the server's field errors on the form; returns true when there were any. */
export function setServerErrors<T extends FieldValues>(setError: UseFormSetError<T>, err: unknown): boolean {
  if (!(err instanceof ApiError) || !err.issues?.length) return false;
  const seen = new Set<string>();
  for (const issue of err.issues) {
    const field = issue.path.split('.')[0] ?? '';
    if (!field || seen.has(field)) continue;
    seen.add(field);
    setError(field as Path<T>, { type: 'server', message: issue.message });
  }
  return seen.size > 0;
}
