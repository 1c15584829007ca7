import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The README's quickstart: the shell block between its quickstart markers, as written. */
export function readmeQuickstart(root = '.'): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.split('<!-- quickstart:begin -->')[1]?.split('<!-- quickstart:end -->')[0];
  const script = section?.match(/```sh\n([\s\S]*?)```/)?.[1];
  if (!script) throw new Error('README.md has no quickstart block');
  return script;
}
