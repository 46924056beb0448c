import { useState } from 'react';
import type { ZodType } from 'zod';
import { fieldErrors } from '../../api/venues';
import { ApiError } from '../../lib/api';

/**
 * The submit cycle of the owner forms: check the shared zod contract first and show its field errors
 * without calling the API; otherwise `save`, and when that fails show the server's field errors
 * (ApiError.issues) and let the form say the rest (`onFailure`, usually a toast). `saving` is true while
 * `save` runs.
 */
export function useValidatedSubmit() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  async function submit(schema: ZodType, value: unknown, save: () => Promise<void>, onFailure: (err: unknown) => void): Promise<void> {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await save();
    } catch (err) {
      if (err instanceof ApiError && err.issues) setErrors(fieldErrors(err.issues));
      onFailure(err);
    } finally {
      setSaving(false);
    }
  }

  return { errors, setErrors, saving, submit };
}
