import { describe, expect, it } from 'vitest';
import { createGate } from './logo-image.js';
import {
  brandColorVariables,
  contrastRatio,
  inkOn,
  textColorOnWhite,
  tint,
} from './brand-colors.js';

describe('brand colours', () => {
  it('puts white text on dark colours and black text on light ones', () => {
    expect(inkOn('#000000')).toBe('#ffffff');
    expect(inkOn('#0f766e')).toBe('#ffffff');
    expect(inkOn('#1d4ed8')).toBe('#ffffff');
    expect(inkOn('#ffeb3b')).toBe('#000000');
    expect(inkOn('#ffffff')).toBe('#000000');
    expect(inkOn('#7fdbff')).toBe('#000000');
  });

  it('keeps button text readable whatever the colour: at least 4.5:1 for every grey and hue', () => {
    for (let v = 0; v < 256; v += 5) {
      const hex = (n: number) => n.toString(16).padStart(2, '0');
      for (const color of [
        `#${hex(v)}${hex(v)}${hex(v)}`,
        `#${hex(v)}0000`,
        `#00${hex(v)}00`,
        `#0000${hex(v)}`,
        `#${hex(v)}${hex(255 - v)}80`,
      ]) {
        expect(contrastRatio(color, inkOn(color)), color).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it('uses the colour as text on white only where it reads there', () => {
    expect(textColorOnWhite('#0F766E')).toBe('#0f766e');
    expect(textColorOnWhite('#ffeb3b')).toBe('#17202e');
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
  });

  it('mixes a soft tint and names every variable the pages use', () => {
    expect(tint('#000000', 0.12)).toBe('#e0e0e0');
    expect(brandColorVariables('#FFEB3B')).toEqual({
      '--accent': '#ffeb3b',
      '--accent-ink': '#000000',
      '--accent-soft': '#fffde7',
      '--accent-hover': '#d9c832',
      '--accent-text': '#17202e',
    });
  });
});

describe('the decoder gate', () => {
  it('runs `max` at once, queues `queue` more, and refuses the rest with 503', async () => {
    const gate = createGate(2, 3);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const task = () =>
      gate(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      });
    const accepted = Array.from({ length: 5 }, task);
    await expect(task()).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
    while (releases.length > 0 || running > 0) {
      releases.splice(0).forEach((release) => release());
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(accepted);
    expect(peak).toBe(2);
  });
});
