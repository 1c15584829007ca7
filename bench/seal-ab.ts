// The fields benchmark's two seals (bench/fields.bench.ts: a 10-page PDF without fields, and
// with forty filled fields and three attached photos), made by an earlier commit's code and by
// this checkout's, in one process: `npx tsx bench/seal-ab.ts --before <commit> [--rounds 300]`.
//
// The machine's speed drifts by a third within minutes, more than a change to the seal moves
// it, so runs of each side apart compare the moments they ran at. Here the commit's `server/`
// and `sdk/` are extracted beside this file (under bench/.seal-ab/, removed afterwards) and
// imported next to this checkout's: every round seals both inputs with both, the four seals in
// an order that reverses each round. The figures are the medians of each round's time ratios
// (after ÷ before), which see the same moments of the machine. Two copies of one commit
// measure within about 1% of 1.000.
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadOrCreateSealCertificate } from '../server/src/modules/sealing/seal-certificate.js';
import { sealPdf as sealAfter } from '../server/src/modules/sealing/seal-pdf.js';
import { WARM_UP_SEALS } from '../server/src/modules/sealing/seal-worker.js';
import { sealInputs } from './fields.bench.js';
import { ROOT, median } from './support/processes.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    rounds: { type: 'string', default: '300' },
  },
});
if (!values.before) {
  console.error('usage: bench/seal-ab.ts --before <commit> [--rounds N]');
  process.exit(2);
}
const rounds = Number(values.rounds);
const commit = execSync(`git rev-parse --short ${values.before}`, { cwd: ROOT }).toString().trim();
// Inside the checkout, so that the copy's imports of packages find this checkout's node_modules.
const copy = path.join(ROOT, 'bench', '.seal-ab', commit);
const dataDir = mkdtempSync(path.join(tmpdir(), 'signet-seal-ab-'));
try {
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  execSync(`git archive ${commit} server sdk | tar -x -C ${JSON.stringify(copy)}`, { cwd: ROOT });
  const before: typeof sealAfter = (
    (await import(
      path.join(copy, 'server/src/modules/sealing/seal-pdf.ts')
    )) as typeof import('../server/src/modules/sealing/seal-pdf.js')
  ).sealPdf;
  const inputs = await sealInputs(await loadOrCreateSealCertificate({ dataDir }));
  const plain = inputs.none;
  const fields = inputs['40 fields'];
  const seals = [
    { name: 'before, none', seal: before, input: plain },
    { name: 'after, none', seal: sealAfter, input: plain },
    { name: 'before, 40 fields', seal: before, input: fields },
    { name: 'after, 40 fields', seal: sealAfter, input: fields },
  ];
  // Warm, as the sealing thread is before its first real seal.
  for (let i = 0; i < WARM_UP_SEALS; i++) for (const s of seals) await s.seal(s.input);
  const times = seals.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [3, 2, 1, 0] : [0, 1, 2, 3];
    for (const i of order) {
      const started = performance.now();
      await seals[i].seal(seals[i].input);
      times[i].push(performance.now() - started);
    }
  }
  const paired = (a: number[], b: number[]) => median(b.map((t, i) => t / a[i]));
  const ms = (i: number) => `${median(times[i]).toFixed(2)} ms`;
  console.log(`seal A/B, ${rounds} rounds: before ${commit}, after this checkout`);
  for (const [i, s] of seals.entries()) console.log(`  ${s.name}: ${ms(i)}`);
  console.log(
    [
      `  after ÷ before, rounds' medians: none ${paired(times[0], times[1]).toFixed(3)}, 40 fields ${paired(times[2], times[3]).toFixed(3)}`,
      `  40 fields ÷ none: before ${paired(times[0], times[2]).toFixed(3)}x, after ${paired(times[1], times[3]).toFixed(3)}x`,
    ].join('\n'),
  );
} finally {
  rmSync(copy, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
