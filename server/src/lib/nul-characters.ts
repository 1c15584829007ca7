// Bounds the walk over a parsed body: JSON nested thousands deep is walked without recursion.
const MAX_VISITS = 100_000;

type Step = { value: unknown; key: string; parent: Step | null };

// The dotted path of a step: built only once a NUL is found, so the walk allocates no strings.
function pathOf(step: Step): string {
  const keys: string[] = [];
  let at: Step | null = step;
  for (; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().reduce((path, key) => (path ? `${path}.${key}` : key), at?.key ?? '');
}

/** Where in a parsed value a string holds a NUL character, if anywhere (iterative walk). */
export function findNulCharacter(value: unknown, root: string): string | null {
  const stack: Step[] = [{ value, key: root, parent: null }];
  let visits = 0;
  while (stack.length > 0 && visits++ < MAX_VISITS) {
    const step = stack.pop()!;
    const current = step.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return pathOf(step);
    } else if (current && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        if (key.includes('\u0000')) return pathOf(step);
        stack.push({ value: (current as Record<string, unknown>)[key], key, parent: step });
      }
    }
  }
  return null;
}
