import { useState } from 'react';

/**
 * Actions on the rows of a list (change a role, disable, delete): `run` clears the last outcome,
 * keeps the action's failure, and reloads the list afterwards whatever happened; the action
 * itself sets the notice that says what it did.
 */
export function useRowActions(reload: () => void) {
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  async function run(action: () => Promise<void>) {
    setFailure(null);
    setNotice(null);
    try {
      await action();
    } catch (err) {
      setFailure((err as Error).message);
    }
    reload();
  }
  return { notice, setNotice, failure, run };
}
