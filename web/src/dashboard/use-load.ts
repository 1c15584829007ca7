import { useCallback, useEffect, useState } from 'react';
import type { ApiError } from '../shared/http.js';
import { asApiError } from './api.js';

/**
 * Loads data for a page and reloads it on demand. Answers that arrive after the inputs changed
 * (another tenant chosen meanwhile) are dropped, so a slow answer never overwrites a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [version, setVersion] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    let current = true;
    run().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(null);
      },
      (err: unknown) => {
        if (current) setError(asApiError(err));
      },
    );
    return () => {
      current = false;
    };
  }, [run, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, error, reload, setData };
}
