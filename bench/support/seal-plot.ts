// Seal time against page count for Signet and its peers, as an SVG (issue 52): written by the
// peers benchmark when it runs all its inputs (docs/seal-vs-pages.svg), and by
// bench/plot-recorded-seals.ts from figures already in the docs. Hand-written SVG: two log axes,
// a polyline and min–max whiskers per stack, a legend; nothing in it depends on the clock, so
// the same figures give the same file.
import { writeFileSync } from 'node:fs';
import type { PeersResult } from '../peers.bench.js';
import { STACK_LABELS, STACK_NAMES, type StackName } from './peer-stacks.js';

/** One stack's time on one input: the median, and its range over the rounds when known. */
export type PlotPoint = { pages: number; ms: number; min?: number; max?: number };

/** One stack's line, in its colour. */
export type PlotSeries = { name: string; color: string; points: PlotPoint[] };

/** What the plot shows: the inputs (one x tick each), the lines, and where they come from. */
export type SealPlot = {
  caption: string;
  inputs: Array<{ pages: number; label: string }>;
  series: PlotSeries[];
};

const WIDTH = 760;
/** Each stack's colour, the same in every plot whichever stacks ran. */
export const STACK_COLORS: Record<StackName, string> = {
  signet: '#1f6feb',
  signpdf: '#d97706',
  documenso: '#8b5cf6',
  libpdf: '#6b7280',
};
// The input names of bench/peers.bench.ts, as the x axis says them.
const INPUT_LABELS: Record<string, string> = {
  'text-10': 'text',
  'illustrated-100': 'images + fonts',
  'scan-300': '40 MiB scan',
};

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const fixed = (n: number) => n.toFixed(1);

// 1, 2, 5, 10, 20, 50… from below the smallest value to above the largest.
function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let decade = 10 ** Math.floor(Math.log10(low)); decade <= high * 10; decade *= 10) {
    for (const step of [1, 2, 5]) ticks.push(decade * step);
  }
  const first = ticks.findLastIndex((t) => t <= low);
  const last = ticks.findIndex((t) => t >= high);
  return ticks.slice(Math.max(first, 0), last + 1);
}

/** The SVG of a plot: seal time (log) against pages (log), one line per series. */
export function sealVsPagesSvg(plot: SealPlot): string {
  // The caption's lines (split at newlines) under the title, then the axes, then a line of
  // legend per series.
  const caption = plot.caption.split('\n');
  const top = 52 + caption.length * 16;
  const AREA = { left: 72, right: 736, top, bottom: top + 300 };
  const height = AREA.bottom + 74 + plot.series.length * 22;
  const values = plot.series.flatMap((s) =>
    s.points.flatMap((p) => [p.min ?? p.ms, p.max ?? p.ms]),
  );
  const yTicks = logTicks(Math.min(...values), Math.max(...values));
  const [yLow, yHigh] = [Math.log10(yTicks[0]), Math.log10(yTicks[yTicks.length - 1])];
  const pages = plot.inputs.map((i) => i.pages);
  // Half a tick's width of room on either side of the first and last input.
  const [xLow, xHigh] = [
    Math.log10(Math.min(...pages) / 1.6),
    Math.log10(Math.max(...pages) * 1.6),
  ];
  const x = (n: number) =>
    AREA.left + ((Math.log10(n) - xLow) / (xHigh - xLow)) * (AREA.right - AREA.left);
  const y = (ms: number) =>
    AREA.bottom - ((Math.log10(ms) - yLow) / (yHigh - yLow)) * (AREA.bottom - AREA.top);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="title">`,
    `<title id="title">Seal time against page count: ${escape(plot.series.map((s) => s.name).join('; '))}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<g font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12" fill="#1f2328">`,
    `<text x="${AREA.left}" y="26" font-size="16" font-weight="600">Seal time against page count</text>`,
    ...caption.map(
      (line, i) =>
        `<text x="${AREA.left}" y="${46 + i * 16}" fill="#57606a">${escape(line)}</text>`,
    ),
  ];
  for (const tick of yTicks) {
    out.push(
      `<line x1="${AREA.left}" x2="${AREA.right}" y1="${fixed(y(tick))}" y2="${fixed(y(tick))}" stroke="#d0d7de" stroke-width="${Number.isInteger(Math.log10(tick)) ? 1 : 0.5}"/>`,
      `<text x="${AREA.left - 8}" y="${fixed(y(tick) + 4)}" text-anchor="end">${tick}</text>`,
    );
  }
  for (const input of plot.inputs) {
    const at = fixed(x(input.pages));
    out.push(
      `<line x1="${at}" x2="${at}" y1="${AREA.top}" y2="${AREA.bottom}" stroke="#d0d7de" stroke-width="0.5"/>`,
      `<text x="${at}" y="${AREA.bottom + 18}" text-anchor="middle">${input.pages}</text>`,
      `<text x="${at}" y="${AREA.bottom + 33}" text-anchor="middle" fill="#57606a">${escape(input.label)}</text>`,
    );
  }
  out.push(
    `<rect x="${AREA.left}" y="${AREA.top}" width="${AREA.right - AREA.left}" height="${AREA.bottom - AREA.top}" fill="none" stroke="#8c959f"/>`,
    `<text x="${(AREA.left + AREA.right) / 2}" y="${AREA.bottom + 52}" text-anchor="middle">pages (log scale)</text>`,
    `<text transform="translate(18 ${(AREA.top + AREA.bottom) / 2}) rotate(-90)" text-anchor="middle">seal time, ms (log scale)</text>`,
  );
  plot.series.forEach((series, i) => {
    const { color } = series;
    const points = [...series.points].sort((a, b) => a.pages - b.pages);
    out.push(`<g stroke="${color}" fill="${color}">`);
    if (points.length > 1) {
      const line = points.map((p) => `${fixed(x(p.pages))},${fixed(y(p.ms))}`).join(' ');
      out.push(`<polyline points="${line}" fill="none" stroke-width="2"/>`);
    }
    for (const p of points) {
      const [px, py] = [fixed(x(p.pages)), fixed(y(p.ms))];
      if (p.min !== undefined && p.max !== undefined && p.max > p.min) {
        const [top, bottom] = [fixed(y(p.max)), fixed(y(p.min))];
        out.push(
          `<path d="M${px} ${top}V${bottom}M${Number(px) - 4} ${top}h8M${Number(px) - 4} ${bottom}h8" fill="none" stroke-width="1"/>`,
        );
      }
      out.push(`<circle cx="${px}" cy="${py}" r="4"/>`);
    }
    const lx = AREA.left;
    const ly = AREA.bottom + 80 + i * 22;
    out.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke-width="2"/>`,
      `<circle cx="${lx + 12}" cy="${ly - 4}" r="4"/>`,
      `<text x="${lx + 32}" y="${ly}" stroke="none" fill="#1f2328">${escape(series.name)}</text>`,
      '</g>',
    );
  });
  out.push('</g>', '</svg>', '');
  return out.join('\n');
}

/** The plot of a peers run: one line per stack that ran, over the inputs it sealed. */
export function sealPlotOfPeers(result: PeersResult, caption: string): SealPlot {
  return {
    caption,
    inputs: result.inputs.map((i) => ({
      pages: i.pages,
      label: INPUT_LABELS[i.input] ?? i.input,
    })),
    series: STACK_NAMES.filter((s) => result.inputs.some((i) => i.stacks[s])).map((stack) => ({
      name: STACK_LABELS[stack],
      color: STACK_COLORS[stack],
      points: result.inputs.flatMap((i) => {
        const s = i.stacks[stack];
        return s ? [{ pages: i.pages, ms: s.ms.median, min: s.ms.min, max: s.ms.max }] : [];
      }),
    })),
  };
}

/** Writes the plot of a peers run that sealed every input; false (nothing written) otherwise. */
export function writeSealPlot(file: string, result: PeersResult, caption: string): boolean {
  if (new Set(result.inputs.map((i) => i.pages)).size < Object.keys(INPUT_LABELS).length) {
    return false;
  }
  writeFileSync(file, sealVsPagesSvg(sealPlotOfPeers(result, caption)));
  return true;
}
