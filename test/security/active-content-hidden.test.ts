import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PDF,
  PdfArray,
  PdfBool,
  PdfDict,
  PdfName,
  PdfNumber,
  PdfRef,
  PdfString,
  type PDFPage,
  type PdfObject,
} from '@libpdf/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ENGINES, type TestContext } from '../helpers/context.js';
import { quickCreate } from '../helpers/documents.js';
import { createTenant, createUser } from '../helpers/factories.js';
import { signAsOnlySignee } from '../helpers/signing.js';

// The red team's files: active content past the old walk's 64-action cap, in an XFA form's
// XML, in associated files, behind a field whose widget no page lists, and in a /Next cycle.

const name = (value: string) => PdfName.of(value);
const text = (value: string) => PdfString.fromString(value);
const script = (code: string) => PdfDict.of({ S: name('JavaScript'), JS: text(code) });
const rect = () => PdfArray.of(...[72, 600, 300, 640].map((n) => PdfNumber.of(n)));

/** A one-page document in which `attack` hides something. */
async function attackPdf(attack: Attack): Promise<Uint8Array> {
  const pdf = PDF.create();
  const page = pdf.addPage({ width: 595, height: 842 });
  page.drawText('Contract with hidden surprises', { x: 72, y: 760, size: 18 });
  attack.build(pdf, page);
  const bytes = await pdf.save();
  if (!attack.respell) return bytes;
  // Respelled in place, at the same length, so that the cross-reference table still holds.
  const [written, respelled] = attack.respell;
  expect(respelled.length).toBe(written.length);
  const text = Buffer.from(bytes).toString('latin1');
  expect(text).toContain(written);
  return new Uint8Array(Buffer.from(text.replace(written, respelled), 'latin1'));
}

/**
 * `length` indirect page-destination actions, each the /Next of the one before (every other one
 * as a one-entry array), ending in `last`; returns the first.
 */
function actionChain(pdf: PDF, page: PDFPage, length: number, last: PdfDict): PdfRef {
  let next = pdf.register(last);
  for (let i = 0; i < length; i++) {
    next = pdf.register(
      PdfDict.of({
        S: name('GoTo'),
        D: PdfArray.of(page.ref, name('Fit')),
        Next: i % 2 ? next : PdfArray.of(next),
      }),
    );
  }
  return next;
}

/** A file specification carrying `bytes` as an embedded file. */
function embeddedFile(pdf: PDF, file: string, bytes: number[]): PdfRef {
  const stream = pdf.createStream(
    { Type: name('EmbeddedFile'), Subtype: name('application/octet-stream') },
    new Uint8Array(bytes),
  );
  return pdf.register(
    PdfDict.of({
      Type: name('Filespec'),
      F: text(file),
      UF: text(file),
      AFRelationship: name('Supplement'),
      EF: PdfDict.of({ F: stream }),
    }),
  );
}

const MZ = [0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0];

type Attack = {
  what: string;
  build: (pdf: PDF, page: PDFPage) => void;
  kinds: string[];
  /** What the sealed copy must still hold, in qpdf's uncompressed output. */
  kept?: RegExp[];
  /** Text of the saved file and what it is replaced by. */
  respell?: [string, string];
};

const ATTACKS: Attack[] = [
  {
    what: 'an /OpenAction chain of 2,000 /Next actions ending in JavaScript',
    build: (pdf, page) =>
      pdf.getCatalog().set('OpenAction', actionChain(pdf, page, 2000, script('app.alert(1)'))),
    kinds: ['javascript'],
  },
  {
    what: 'bookmarks 150 deep, the last one running JavaScript after 100 /Next actions',
    build: (pdf, page) => {
      const outlines = pdf.register(PdfDict.of({ Type: name('Outlines') }));
      let parent = outlines;
      for (let i = 0; i < 150; i++) {
        const item = pdf.register(
          PdfDict.of({
            Title: text(`Clause ${i + 1}`),
            Parent: parent,
            A: i === 149 ? actionChain(pdf, page, 100, script('this.print()')) : goTo(page),
          }),
        );
        const holder = pdf.getObject(parent) as PdfDict;
        holder.set('First', item);
        holder.set('Last', item);
        holder.set('Count', PdfNumber.of(1));
        parent = item;
      }
      pdf.getCatalog().set('Outlines', outlines);
    },
    kinds: ['javascript'],
    kept: [/\/Title \(Clause 150\)/],
  },
  {
    what: 'a link to a web address whose /Next chain of 150 actions ends in JavaScript',
    build: (pdf, page) => {
      const uri = PdfDict.of({
        S: name('URI'),
        URI: text('https://example.com/terms'),
        Next: actionChain(pdf, page, 150, script('app.launchURL("https://evil.example")')),
      });
      page.dict.set(
        'Annots',
        PdfArray.of(pdf.register(annotation({ Subtype: name('Link'), A: uri }))),
      );
    },
    kinds: ['javascript'],
    kept: [/\/URI \(https:\/\/example\.com\/terms\)/],
  },
  {
    what: 'an XFA form whose template holds a <script>',
    build: (pdf) => {
      const packet = (xml: string) => pdf.createStream({}, new TextEncoder().encode(xml));
      const field = pdf.register(
        annotation({ Subtype: name('Widget'), FT: name('Tx'), T: text('name') }),
      );
      pdf.getCatalog().set(
        'AcroForm',
        PdfDict.of({
          Fields: PdfArray.of(field),
          XFA: PdfArray.of(
            text('template'),
            packet(
              '<template xmlns="http://www.xfa.org/schema/xfa-template/3.3/"><subform name="form1">' +
                '<field name="name"><event activity="initialize"><script contentType="application/x-javascript">' +
                'xfa.host.messageBox("hi")</script></event></field></subform></template>',
            ),
            text('datasets'),
            packet('<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"/>'),
          ),
        }),
      );
      pdf.getCatalog().set('NeedsRendering', PdfBool.of(true));
    },
    kinds: ['javascript'],
    kept: [/\/T \(name\)/],
  },
  {
    what: 'associated files (/AF) of the catalog and of a page: an .exe',
    build: (pdf, page) => {
      pdf.getCatalog().set('AF', PdfArray.of(embeddedFile(pdf, 'setup.exe', MZ)));
      page.dict.set('AF', PdfArray.of(embeddedFile(pdf, 'invoice.exe', MZ)));
    },
    kinds: ['embedded_files'],
  },
  {
    what: 'a form field whose widget runs JavaScript but is in no page’s /Annots',
    build: (pdf, page) => {
      const widget = pdf.register(
        annotation({
          Subtype: name('Widget'),
          FT: name('Tx'),
          T: text('hidden'),
          P: page.ref,
          A: script('app.alert("clicked")'),
          AA: PdfDict.of({ K: script('event.rc = true') }),
        }),
      );
      pdf.getCatalog().set('AcroForm', PdfDict.of({ Fields: PdfArray.of(widget) }));
    },
    kinds: ['javascript'],
    kept: [/\/T \(hidden\)/],
  },
  {
    what: 'a /Next cycle of 100 actions with JavaScript after it',
    build: (pdf, page) => {
      const first = pdf.register(goTo(page));
      const last = actionChain(pdf, page, 99, PdfDict.of({}));
      (pdf.getObject(first) as PdfDict).set('Next', last);
      // The chain's end returns to its start, then runs a script that returns there too.
      let end = pdf.getObject(last) as PdfDict;
      while (end.has('Next')) {
        const next = end.get('Next')!;
        end = pdf.getObject((next instanceof PdfArray ? next.at(0) : next) as PdfRef) as PdfDict;
      }
      end.set('S', name('GoTo'));
      end.set('D', PdfArray.of(page.ref, name('Fit')));
      end.set('Next', PdfArray.of(first, pdf.register(script('while (true) {}'))));
      pdf.getCatalog().set('OpenAction', first);
    },
    kinds: ['javascript'],
  },
  {
    what: 'actions only the information dictionary, the structure tree and a pop-up reach',
    build: (pdf, page) => {
      // A link no page lists, reached through the structure tree, to a "java<TAB>script:" address.
      const link = pdf.register(
        annotation({
          Subtype: name('Link'),
          A: PdfDict.of({ S: name('URI'), URI: text('java\tscript:alert(document.cookie)') }),
        }),
      );
      const objr = PdfDict.of({ Type: name('OBJR'), Obj: link, Pg: page.ref });
      const root = PdfDict.of({ Type: name('StructTreeRoot'), K: PdfArray.of(objr) });
      pdf.getCatalog().set('StructTreeRoot', pdf.register(root));
      // A file attachment no page lists, held by the pop-up that a page does list.
      const attachment = pdf.register(
        annotation({ Subtype: name('FileAttachment'), FS: embeddedFile(pdf, 'run.exe', MZ) }),
      );
      const popup = annotation({ Subtype: name('Popup'), Parent: attachment });
      page.dict.set('Annots', PdfArray.of(pdf.register(popup)));
      // A launch under a key of the document information no viewer reads, and a rendition
      // with a script of its own.
      pdf.setTitle('Contract');
      const info = pdf.getObject(pdf.context.info.trailer.getRef('Info')!) as PdfDict;
      info.set('Extra', PdfDict.of({ S: name('Launch'), F: text('calc.exe') }));
      info.set('Media', PdfDict.of({ S: name('Rendition'), JS: text('play()') }));
    },
    kinds: ['embedded_files', 'javascript', 'launch'],
    kept: [/\/Subtype \/Popup/, /\/StructTreeRoot/],
  },
  {
    what: 'an open action whose names are spelled with #-escapes (/Java#53cript, /J#53)',
    build: (pdf) => pdf.getCatalog().set('OpenAction', pdf.register(script('app.alert(1);;;'))),
    respell: [
      '/S /JavaScript\n/JS (app.alert\\(1\\);;;)',
      '/S/Java#53cript\n/J#53 (app.alert\\(1\\))',
    ],
    kinds: ['javascript'],
  },
  {
    what: 'a page dressed up as a launch action, its text in a stream typed /EmbeddedFile',
    build: (pdf, page) => {
      page.dict.set('S', name('Launch'));
      pdf.getCatalog().set('OpenAction', page.ref);
      const contents = page.dict.get('Contents');
      const first = contents instanceof PdfArray ? contents.at(0) : contents;
      (pdf.getObject(first as PdfRef) as PdfDict).set('Type', name('EmbeddedFile'));
    },
    // What the signee saw stays: the page and its text (checked on the certificate below).
    kinds: ['embedded_files', 'launch'],
  },
];

function goTo(page: PDFPage): PdfDict {
  return PdfDict.of({ S: name('GoTo'), D: PdfArray.of(page.ref, name('Fit')) });
}

function annotation(entries: Record<string, PdfObject>): PdfDict {
  return PdfDict.of({ Type: name('Annot'), Rect: rect(), ...entries });
}

const LABELS: Record<string, string> = {
  embedded_files: 'embedded files',
  javascript: 'JavaScript',
  launch: 'launch actions',
};

// What the sealed copy must not hold anywhere, streams uncompressed.
const FORBIDDEN = [
  /\/JavaScript\b/,
  /\/JS\b/,
  /\/XFA\b/,
  /\/NeedsRendering\b/,
  /<script/i,
  /\/Launch\b/,
  /\/SubmitForm\b/,
];

describe.each(ENGINES)('hidden active content on %s', (engine) => {
  let ctx: TestContext;
  let apiKey: string;
  let tenantId: string;
  let scratch: string;
  beforeAll(async () => {
    // Each attack verifies from an address of its own: from one, the fourteen verifications
    // would run into /api/verify's limit (10 at once, then one a second).
    ctx = await createTestContext(engine, { listen: true, env: { TRUST_PROXY: 'loopback' } });
    apiKey = (await createUser(ctx)).apiKey;
    tenantId = (await createTenant(ctx, apiKey)).id;
    scratch = mkdtempSync(path.join(tmpdir(), 'signet-hidden-'));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const verify = async (bytes: Uint8Array, from: string) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'check.pdf');
    const res = await fetch(`${ctx.baseUrl}/api/verify`, {
      method: 'POST',
      body: form,
      headers: { 'x-forwarded-for': from },
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  const tool = (cmd: string, args: string[], bytes: Uint8Array) => {
    const file = path.join(scratch, `${cmd}-${Math.random().toString(36).slice(2)}.pdf`);
    writeFileSync(file, bytes);
    tool.last = file;
    const out = `${file}.out`;
    const run = spawnSync(cmd, [...args, file, ...(cmd === 'pdfsig' ? [] : [out])], {
      encoding: 'utf8',
    });
    return { ...run, out: cmd === 'pdfsig' ? run.stdout : readFileSync(out, 'latin1') };
  };
  /** The file the last tool call read. */
  tool.last = '';

  it.each(ATTACKS.map((attack) => [attack.what, attack] as const))(
    '%s: reported on the original, gone from the sealed copy, named on its certificate',
    async (_, attack) => {
      const from = `198.51.100.${ATTACKS.indexOf(attack) + 1}`;
      const original = await attackPdf(attack);
      const before = await verify(original, from);
      expect(before).toMatchObject({ status: 'unknown', activeContent: attack.kinds });
      expect(before.detail).toContain('which a viewer may run or open');

      const signee = { email: `hid${Math.random().toString(36).slice(2, 8)}@ex.io`, name: 'Hu' };
      const created = await quickCreate(ctx, apiKey, {
        tenantId,
        file: Buffer.from(original),
        signees: [signee],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.document.id as string;
      const { done, sealed } = await signAsOnlySignee(ctx, apiKey, id, signee);
      expect(done.document.sealMode).toBe('normalised');

      const after = await verify(sealed, from);
      expect(after).toMatchObject({ status: 'sealed', activeContent: [], documentId: id });
      expect(after.detail).not.toContain('viewer may run');
      const sig = tool('pdfsig', [], sealed).out;
      expect(sig).toContain('Signature is Valid');
      expect(sig).toContain('Total document signed');

      const qdf = tool('qpdf', ['--qdf', '--object-streams=disable'], sealed);
      expect(qdf.status, qdf.stderr).toBe(0);
      for (const pattern of FORBIDDEN) expect(qdf.out).not.toMatch(pattern);
      // One embedded file, the seal's own evidence.json: its file specification in the
      // catalog's /AF and in the /EmbeddedFiles names, its /EF and its /EmbeddedFile stream.
      for (const key of [/\/AF\b/g, /\/EmbeddedFiles\b/g, /\/EF\b/g, /\/EmbeddedFile\b/g]) {
        expect(qdf.out.match(key), String(key)).toHaveLength(1);
      }
      const attachments = spawnSync('qpdf', ['--list-attachments', tool.last], {
        encoding: 'utf8',
      });
      expect(
        attachments.stdout
          .trim()
          .split('\n')
          .map((line) => line.split(' ')[0]),
      ).toEqual(['evidence.json']);
      for (const pattern of attack.kept ?? []) expect(qdf.out).toMatch(pattern);

      const certificate = tool('pdftotext', ['-layout'], sealed).out.replace(/\s+/g, ' ');
      expect(certificate).toContain('Contract with hidden surprises');
      const removed = attack.kinds.map((kind) => LABELS[kind]).join(', ');
      expect(certificate).toContain(
        `Removed before sealing ${removed}`.replace(/, (?=[^,]*$)/, ' and '),
      );
      if (attack.what.includes('XFA')) expect(certificate).toContain('its XFA form removed');
    },
    60_000,
  );
});
