import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The colour tokens of base.css against WCAG 2.1 AA: every text/background pair the dashboard
// and the signing page draw, and the boundaries that identify a control or its focus. A colour
// change that breaks AA fails here, before anyone has to spot it on a screen.

const BASE_CSS = readFileSync(new URL('../../web/src/shared/base.css', import.meta.url), 'utf8');

/** The custom properties of base.css's :root block whose value is a #rrggbb colour. */
function rootColours(css: string): Map<string, string> {
  const root = /:root\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
  const colours = new Map<string, string>();
  for (const m of root.matchAll(/(--[a-z0-9-]+)\s*:\s*(#[0-9a-f]{6})\s*;/gi)) {
    colours.set(m[1], m[2].toLowerCase());
  }
  return colours;
}

/** The relative luminance of a #rrggbb colour (WCAG 2.1). */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two #rrggbb colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const TEXT = 4.5; // normal text
const UI = 3; // large text, control boundaries, focus rings

// [foreground, background, minimum, where]
const PAIRS: [string, string, number, string][] = [
  ['--ink', '--surface', TEXT, 'body text on cards'],
  ['--ink', '--canvas', TEXT, 'body text on the page'],
  ['--ink', '--surface-hover', TEXT, 'a secondary button under the pointer'],
  ['--ink', '--accent-soft', TEXT, 'the verify banner, selected rows'],
  ['--ink', '--warning-soft', TEXT, 'text in a secret-once box'],
  ['--ink-muted', '--surface', TEXT, 'hints, table heads, empty states'],
  ['--ink-muted', '--canvas', TEXT, 'the lead under a title'],
  ['--ink-muted', '--accent-soft', TEXT, 'hints inside a selected card'],
  ['--accent', '--surface', TEXT, 'links'],
  ['--accent', '--canvas', TEXT, 'links on the page'],
  ['--accent', '--accent-soft', TEXT, 'the current navigation item'],
  ['--accent-ink', '--accent', TEXT, 'primary buttons'],
  ['--accent-ink', '--accent-strong', TEXT, 'primary buttons under the pointer'],
  ['--danger', '--surface', TEXT, 'field errors'],
  ['--danger', '--danger-soft', TEXT, 'form errors'],
  ['--danger-ink', '--danger', TEXT, 'danger buttons, field warnings'],
  ['--danger-ink', '--danger-strong', TEXT, 'danger buttons under the pointer'],
  ['--success', '--surface', TEXT, 'done states'],
  ['--success', '--success-soft', TEXT, 'status messages'],
  ['--warning', '--surface', TEXT, 'warning text'],
  ['--warning', '--warning-soft', TEXT, 'the sandbox banner'],
  ['--surface', '--ink', TEXT, 'the skip link'],
  ['--line-strong', '--surface', UI, 'text inputs and secondary buttons'],
  ['--line-strong', '--canvas', UI, 'controls on the page'],
  ['--focus', '--surface', UI, 'the focus ring on cards'],
  ['--focus', '--canvas', UI, 'the focus ring on the page'],
  ['--focus', '--accent-soft', UI, 'the focus ring on a selected item'],
  ['--focus', '--surface-hover', UI, 'the focus ring on a hovered item'],
  ['--focus', '--ink', UI, 'the focus ring on the skip link'],
];

describe('colour tokens (base.css)', () => {
  const colours = rootColours(BASE_CSS);

  it('are read from the :root block', () => {
    expect(colours.size).toBeGreaterThan(15);
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it.each(PAIRS)('%s on %s reaches %s:1 (%s)', (fg, bg, minimum) => {
    const a = colours.get(fg);
    const b = colours.get(bg);
    expect(a, `${fg} is a #rrggbb token`).toBeDefined();
    expect(b, `${bg} is a #rrggbb token`).toBeDefined();
    expect(contrast(a!, b!)).toBeGreaterThanOrEqual(minimum);
  });
});

describe('type and spacing scales (base.css)', () => {
  it('define the six text steps and eight spacing steps the dashboard uses', () => {
    for (const step of ['xs', 'sm', 'md', 'lg', 'xl', '2xl']) {
      expect(BASE_CSS).toMatch(new RegExp(`--text-${step}:\\s*[0-9.]+rem;`));
    }
    for (let step = 1; step <= 8; step++) {
      expect(BASE_CSS).toMatch(new RegExp(`--space-${step}:\\s*[0-9.]+rem;`));
    }
  });

  it('leave no literal font size in the dashboard stylesheets', () => {
    const files = ['dashboard', 'setup', 'home-counts', 'brand-section', 'workflow'];
    for (const name of files) {
      const css = readFileSync(
        new URL(`../../web/src/dashboard/${name}.css`, import.meta.url),
        'utf8',
      );
      const literal = [...css.matchAll(/font-size:\s*([0-9.]+rem)/g)].map((m) => m[1]);
      expect(literal, `${name}.css`).toEqual([]);
    }
  });
});
