import { Command, InvalidArgumentError } from 'commander';
import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './lib/errors.js';
import { serve } from './main.js';
import { findDocument, listSealFailures } from './modules/documents/documents.repo.js';
import { reopenSeal } from './modules/documents/documents.service.js';
import { sealCertificateLoader } from './modules/sealing/load-certificate.js';
import { cleanOrphanFiles } from './modules/storage/orphan-cleanup.js';
import { createStorage } from './modules/storage/storage.js';
import { grantCredits } from './modules/tenants/tenants.service.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError('must be a positive whole number');
  }
  return n;
}

function positiveIntOrZero(value: string): number {
  return value === '0' ? 0 : positiveInt(value);
}

const program = new Command()
  .name('signet')
  .description('Signet e-signing service: server and operator commands')
  .showHelpAfterError();

program
  .command('serve')
  .description('serve the API, pages and background workers')
  .action(() => serve());

program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(async () => {
    const db = openDatabase(loadConfig());
    try {
      const applied = await migrateToLatest(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
    } finally {
      await db.close();
    }
  });

program
  .command('cleanup')
  .description('remove stored files no document accounts for (also done at every start)')
  .option(
    '--grace <seconds>',
    'only files older than this (default ORPHAN_GRACE_SECONDS)',
    positiveIntOrZero,
  )
  .action(async (options: { grace?: number }) => {
    const config = loadConfig();
    const db = openDatabase(config);
    try {
      await migrateToLatest(db);
      const result = await cleanOrphanFiles({
        db,
        storage: await createStorage(config),
        graceSeconds: options.grace ?? config.orphanGraceSeconds,
      });
      for (const key of result.deleted) console.log(`deleted ${key}`);
      console.log(
        `Scanned ${result.scanned} file(s); deleted ${result.deleted.length}; kept ${result.keptYoung} younger than the grace period.`,
      );
    } finally {
      await db.close();
    }
  });

program
  .command('credits')
  .description('manage signature credits')
  .command('grant')
  .description('add signature credits to a tenant')
  .argument('<tenantId>', 'tenant id')
  .argument('<amount>', 'credits to add', positiveInt)
  .action(async (tenantId: string, amount: number) => {
    const db = openDatabase(loadConfig());
    try {
      await migrateToLatest(db);
      const balance = await grantCredits(db, { tenantId, amount });
      console.log(`Granted ${amount} credits to ${tenantId}; balance ${balance}.`);
    } finally {
      await db.close();
    }
  });

const seal = program.command('seal').description('documents whose seal failed for good');

seal
  .command('failed')
  .description('list the documents in seal_failed, and why')
  .action(async () => {
    const db = openDatabase(loadConfig());
    try {
      await migrateToLatest(db);
      const rows = await listSealFailures(db.kysely);
      for (const d of rows)
        console.log(`${d.id}\t${d.tenant_id}\t${d.updated_at}\t${d.seal_failure ?? ''}`);
      console.log(`${rows.length} document(s) whose seal failed.`);
    } finally {
      await db.close();
    }
  });

seal
  .command('retry')
  .description('seal again a document in seal_failed (a running service picks it up)')
  .argument('<documentId>', 'document id')
  .action(async (documentId: string) => {
    const db = openDatabase(loadConfig());
    try {
      await migrateToLatest(db);
      const document = await findDocument(db.kysely, documentId);
      const reopened =
        document !== undefined &&
        (await db.kysely
          .transaction()
          .execute((trx) => reopenSeal(trx, document, { actor: 'system' })));
      if (!reopened) {
        console.error(
          `signet: ${documentId} is ${document ? `${document.status}, not seal_failed` : 'no document'}.`,
        );
        process.exitCode = 1;
        return;
      }
      console.log(`${documentId} is pending_seal again; the seal job is queued.`);
    } finally {
      await db.close();
    }
  });

program
  .command('openapi')
  .description("print the API's OpenAPI document (JSON), as /api/openapi.json serves it")
  .option('--check <file>', 'exit 1 unless <file> holds exactly this document')
  .action(async (options: { check?: string }) => {
    const { openApiDocument } = await import('./openapi-document.js');
    const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
    if (!options.check) return void process.stdout.write(text);
    const committed = await readFile(options.check, 'utf8').catch(() => '');
    if (committed !== text) {
      console.error(`signet: ${options.check} is not the current API: run \`npm run openapi\`.`);
      process.exitCode = 1;
    }
  });

program
  .command('verify')
  .description('say whether a PDF was sealed by this service and is unaltered since')
  .argument('<file>', 'PDF file')
  .option('--evidence', 'check and print its evidence.json instead (docs/evidence.md)')
  .option('--json', "print POST /api/verify's answer (or, with --evidence, the check) as JSON")
  .action(async (file: string, options: { evidence?: boolean; json?: boolean }) => {
    const config = loadConfig();
    const bytes = await readFile(file);
    const db = openDatabase(config);
    try {
      await migrateToLatest(db);
      // Loaded here rather than at the top: `serve` shares this entry point and should not hold
      // the PDF and certificate libraries until it seals or verifies.
      const { verifyDocument } = await import('./modules/sealing/verify-document.js');
      if (options.evidence) {
        const { printEvidenceCheck } = await import('./modules/sealing/evidence-cli.js');
        process.exitCode = await printEvidenceCheck(
          { db, certificate: sealCertificateLoader(config) },
          bytes,
          { json: options.json ?? false },
        );
        return;
      }
      const { describeVerification } = await import('./modules/sealing/verify-report.js');
      const result = await verifyDocument(
        { db, certificate: sealCertificateLoader(config) },
        bytes,
      );
      console.log(options.json ? JSON.stringify(result, null, 2) : describeVerification(result));
      // Scripts can branch on the exit code: 0 sealed, 2 altered, 3 unknown.
      process.exitCode = { sealed: 0, altered: 2, unknown: 3 }[result.status];
    } finally {
      await db.close();
    }
  });

program.parseAsync().catch((err) => {
  if (err instanceof ConfigError || err instanceof AppError) {
    console.error(`signet: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
