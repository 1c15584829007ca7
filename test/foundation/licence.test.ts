import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The licence texts are the ones the manifests declare (spdx-license-list holds the SPDX texts),
// and no production dependency brings a licence NOTICE does not cover.
const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const manifest = (file: string) => JSON.parse(read(file)) as { license: string };
const spdxText = (id: string) =>
  (
    JSON.parse(read(`node_modules/spdx-license-list/licenses/${id}.json`)) as {
      licenseText: string;
    }
  ).licenseText;
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

// Licences NOTICE names: permissive ones, the fonts' OFL and libvips' LGPL (dynamically linked).
const COVERED = new Set([
  'MIT',
  'ISC',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  '0BSD',
  'MIT-0',
  'BlueOak-1.0.0',
  'Zlib',
  'OFL-1.1',
  'LGPL-3.0-or-later',
  'Public Domain',
  'WTFPL',
  'GPL-2.0',
]);

describe('licences', () => {
  it('ships the AGPL-3.0 text the service declares', () => {
    expect(manifest('package.json').license).toBe('AGPL-3.0-only');
    expect(words(read('LICENSE'))).toBe(words(spdxText('AGPL-3.0-only')));
  });

  it('puts the SDK under MIT, with its text and copyright line', () => {
    expect(manifest('sdk/package.json').license).toBe('MIT');
    const expected = spdxText('MIT').replace(
      '<year> <copyright holders>',
      '2026 The Signet contributors',
    );
    expect(words(read('sdk/LICENSE'))).toBe(words(expected));
  });

  it('has no production dependency under a licence NOTICE does not cover', () => {
    const dirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: root,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .slice(1);
    const uncovered: string[] = [];
    for (const dir of dirs) {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name: string;
        license?: string | { type: string };
      };
      const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? '');
      // "MIT AND OFL-1.1" needs both covered; "(MIT OR WTFPL)" one of them.
      const all = license.replace(/[()]/g, '').split(/\s+AND\s+/);
      const ok = all.every((part) => part.split(/\s+OR\s+/).some((id) => COVERED.has(id.trim())));
      if (!ok) uncovered.push(`${pkg.name}: ${license || '(none)'}`);
    }
    expect(uncovered).toEqual([]);
  });
});
