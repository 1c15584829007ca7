// `npm run evidence-schema`: writes docs/evidence.schema.json from the zod schema the server
// builds the evidence with; `--check <file>` exits 1 unless the file is current (npm run check).
import { readFile, writeFile } from 'node:fs/promises';
import { evidenceJsonSchema } from './evidence-schema.js';

const text = `${JSON.stringify(evidenceJsonSchema(), null, 2)}\n`;
const [flag, file] = process.argv.slice(2);
if (flag === '--check' && file) {
  if ((await readFile(file, 'utf8').catch(() => '')) !== text) {
    console.error(`${file} is not the current evidence schema: run \`npm run evidence-schema\`.`);
    process.exitCode = 1;
  }
} else if (flag) {
  await writeFile(flag, text);
} else {
  process.stdout.write(text);
}
