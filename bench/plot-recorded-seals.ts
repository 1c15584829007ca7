// docs/seal-vs-pages.svg from figures already recorded in the docs, without running anything:
// `npx tsx bench/plot-recorded-seals.ts [--out docs/seal-vs-pages.svg]`. The peers benchmark
// writes the same plot from its own figures (bench/support/seal-plot.ts) whenever it seals all
// three inputs; this is for the figures of a run that predates that. Today's are the newest
// run that recorded every stack's time per input: the 5-round rerun of 2026-11-26 05:06 UTC
// (docs/benchmarks-history.md, "Issue 30: peers"), which gave min–max for the 10-page input only
// and timed the floor at 10 pages only.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { STACK_LABELS } from './support/peer-stacks.js';
import { ROOT } from './support/processes.js';
import { STACK_COLORS, sealVsPagesSvg, type SealPlot } from './support/seal-plot.js';

/** The figures of 2026-11-26 05:06 UTC, in ms, as docs/benchmarks-history.md gives them. */
const RECORDED: SealPlot = {
  caption:
    'bench/peers.bench.ts, 2026-11-26 05:06 UTC, AMD EPYC with 2 CPUs, shared with other work:\n' +
    'each point the median of 5 rounds; bars from min to max where the run recorded them',
  inputs: [
    { pages: 10, label: 'text' },
    { pages: 100, label: 'images + fonts' },
    { pages: 300, label: '40 MiB scan' },
  ],
  series: [
    {
      name: STACK_LABELS.signet,
      color: STACK_COLORS.signet,
      points: [
        { pages: 10, ms: 11, min: 9, max: 17 },
        { pages: 100, ms: 89 },
        { pages: 300, ms: 591 },
      ],
    },
    {
      name: STACK_LABELS.signpdf,
      color: STACK_COLORS.signpdf,
      points: [
        { pages: 10, ms: 187 },
        { pages: 100, ms: 521 },
        { pages: 300, ms: 2383 },
      ],
    },
    {
      name: STACK_LABELS.documenso,
      color: STACK_COLORS.documenso,
      points: [
        { pages: 10, ms: 596 },
        { pages: 100, ms: 830 },
        { pages: 300, ms: 2261 },
      ],
    },
    {
      name: STACK_LABELS.libpdf,
      color: STACK_COLORS.libpdf,
      points: [{ pages: 10, ms: 7, min: 4, max: 8 }],
    },
  ],
};

const { values } = parseArgs({
  options: { out: { type: 'string', default: path.join(ROOT, 'docs', 'seal-vs-pages.svg') } },
});
writeFileSync(values.out, sealVsPagesSvg(RECORDED));
process.stderr.write(`written to ${values.out}\n`);
