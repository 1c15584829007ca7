// @ts-check
// How a worker thread's script (the *.worker.mjs files) loads the TypeScript module it runs. A
// worker starts in plain Node, outside whatever loader ran the main thread, so it loads for
// itself: in a built tree (`npm run build`, dist/) the compiled .js beside the script; in a
// source checkout (tests, `npm run dev`) the .ts itself, through tsx, a dev dependency.
import { existsSync } from 'node:fs';

/** @type {Promise<void> | undefined} */
let tsxRegistered;

/**
 * Imports the module `name` (relative, without extension) beside the worker script `base` (its
 * `import.meta.url`): `name.js` when it is there, else `name.ts` through tsx.
 * @param {string} name
 * @param {string} base
 * @returns {Promise<any>}
 */
export async function importBeside(name, base) {
  const compiled = new URL(`${name}.js`, base);
  if (existsSync(compiled)) return import(compiled.href);
  await (tsxRegistered ??= import('tsx/esm/api').then(({ register }) => void register()));
  return import(new URL(`${name}.ts`, base).href);
}
