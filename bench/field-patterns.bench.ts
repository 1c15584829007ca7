// What a text field's pattern costs on a hostile value (issue 51): `(a+)+$` against 10,000
// characters that do not match, the classic catastrophic case for a backtracking engine, run
// on re2js as the server and the signing page run it. `npx tsx bench/field-patterns.bench.ts
// [--rounds 200]`. Reports the module's load (which warms the engine), the first check after
// it, and the median and p99 of the next `rounds` checks; goal: every figure under 10 ms.
import { parseArgs } from 'node:util';

const GOAL_MS = 10;

/** Loads the rules module in this process and times the first and later checks. */
export async function benchPatterns(rounds: number) {
  let at = performance.now();
  const { textValueProblem } = await import('../server/src/modules/fields/validation.js');
  const loadMs = performance.now() - at;
  const value = `${'a'.repeat(10_000)}!`;
  const check = () => textValueProblem(value, { pattern: '(a+)+$' });
  at = performance.now();
  if (check() === null) throw new Error('the pattern matched a value it must not');
  const firstMs = performance.now() - at;
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    at = performance.now();
    check();
    times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)];
  const p99Ms = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
  return { loadMs, firstMs, medianMs, p99Ms, met: Math.max(firstMs, p99Ms) < GOAL_MS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' } } });
  const result = await benchPatterns(Number(values.rounds));
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(
    `(a+)+$ on 10,000 characters: module load ${ms(result.loadMs)}, first check ${ms(result.firstMs)}, ` +
      `median ${ms(result.medianMs)}, p99 ${ms(result.p99Ms)} (goal < ${GOAL_MS} ms: ${result.met ? 'met' : 'MISSED'})`,
  );
  process.exitCode = result.met ? 0 : 1;
}
