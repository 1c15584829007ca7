import { useState } from 'react';
import type { FieldError } from '../shared/http.js';
import { asApiError } from './api.js';

/** Runs a form submission; keeps the field errors of a 422 and the message of anything else. */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  async function submit(run: () => Promise<void>) {
    setBusy(true);
    setErrors([]);
    setMessage(null);
    try {
      await run();
    } catch (err) {
      const e = asApiError(err);
      setErrors(e.fieldErrors);
      if (e.fieldErrors.length === 0) setMessage(e.message);
    } finally {
      setBusy(false);
    }
  }
  return { busy, errors, message, submit };
}
