// Compares one benchmark's ratio to its bare baseline between another checkout ("before") and
// this one ("after"): `npx tsx bench/ab.ts --before DIR --bench tenant-get [--pairs 3]
// [-- options for the benchmark]`. DIR is a checkout of an earlier commit with its
// dependencies installed (`git worktree add DIR <commit>` and a node_modules beside it).
//
// Each run is the benchmark file of that checkout, which starts that checkout's service and
// its own bare baseline; the ratio it prints normalises away what the machine was doing. The
// order rotates (before after, after before, …) so drift falls on both alike; the figures are
// the medians of each side's ratios, with their spread.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, median } from './support/processes.js';

const { values, positionals } = parseArgs({
  options: {
    before: { type: 'string' },
    bench: { type: 'string' },
    pairs: { type: 'string', default: '3' },
  },
  allowPositionals: true,
});
if (!values.before || !values.bench) {
  console.error('usage: bench/ab.ts --before DIR --bench NAME [--pairs N] [-- bench options]');
  process.exit(2);
}
const before = path.resolve(values.before);
const bench = values.bench;
const pairs = Number(values.pairs);

// One run of the benchmark in `root`; its output streams through, and its ratio is returned.
function runOnce(root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', `bench/${bench}.bench.ts`, ...positionals],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ratio = /ratio of medians(?: to the fsyncing bare route)?: ([\d.]+)%/.exec(out)?.[1];
      if (code !== 0 || !ratio) reject(new Error(`${bench} in ${root} exited ${code}`));
      else resolve(Number(ratio) / 100);
    });
  });
}

const ratios = { before: [] as number[], after: [] as number[] };
for (let pair = 0; pair < pairs; pair++) {
  const order = pair % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
  for (const side of order) {
    console.log(`\n== pair ${pair + 1}/${pairs}: ${side} (${side === 'before' ? before : ROOT})`);
    ratios[side].push(await runOnce(side === 'before' ? before : ROOT));
  }
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const describe = (xs: number[]) =>
  `median ${pct(median(xs))} (runs ${xs.map(pct).join(', ')}; spread ${pct(Math.min(...xs))}–${pct(Math.max(...xs))})`;
console.log(`\n${bench}: ratio to the bare baseline`);
console.log(`  before: ${describe(ratios.before)}`);
console.log(`  after:  ${describe(ratios.after)}`);
const change = median(ratios.after) / median(ratios.before) - 1;
console.log(`  after / before: ${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`);
