import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { asApiError } from './api.js';
import {
  DEFAULT_SIZE,
  colourOf,
  describeField,
  freeSpot,
  newField,
  pinErrors,
  toInput,
  TYPE_NAMES,
  withoutSignature,
  type DraftField,
  type FieldType,
  type PageSize,
  type Participant,
  type PinnedError,
} from './prepare-fields.js';
import { BackOrLeave, ErrorList } from './prepare-bar.js';
import { PrepareNext, type NextStep } from './prepare-next.js';
import { FieldLayer, type LayerActions, type PageHit } from './prepare-layer.js';
import { Palette, PageList, type PaletteActions } from './prepare-palette.js';
import { FieldPanel } from './prepare-panel.js';
import { PrepareSheet, useElementWidth, usePdf } from './prepare-pdf.js';
import { setLeaveGuard } from './router.js';
import { ErrorMessage, PageTitle, StatusMessage } from './ui.js';

/**
 * What the editor places fields on: a draft (fields for its signees) or a template (fields for
 * its roles). The editor is the same; only the participants, the PDF, the wording and where the
 * fields are saved differ.
 */
export type PrepareSubject = {
  kind: 'document' | 'template';
  name: string;
  /** The PDF's download URL (the resource's `downloadUrl`). */
  downloadUrl: string;
  participants: Participant[];
  /** The page to go back to, and the link's words when not the kind's own. */
  back: string;
  backLabel?: string;
  /** In the guided flow: the step after this one (the fields are saved before going on). */
  next?: NextStep;
  /** Replaces the subject's fields with these; answers them as saved, in the same order. */
  save: (fields: DraftField[]) => Promise<DraftField[]>;
};

// What differs in the editor's words between a draft and a template.
const WORDS = {
  document: {
    title: 'Prepare fields',
    back: '← Back to the document',
    participant: 'Signee',
    noSignature: (names: string, one: boolean) =>
      `Sending will be refused until every signee has a signature field: ${names} ${one ? 'has' : 'have'} none.`,
    noFields: 'Without fields, the signees sign on a page added at the end, as before.',
    unreadable: 'The document could not be shown here.',
  },
  template: {
    title: 'Place fields',
    back: '← Back to the template',
    participant: 'Role',
    noSignature: (names: string, one: boolean) =>
      `Documents made from this template cannot be sent until every role has a signature field: ${names} ${one ? 'has' : 'have'} none.`,
    noFields:
      'Without fields, the signees of each document made from it sign on a page added at the end.',
    unreadable: 'The template’s PDF could not be shown here.',
  },
};

/** The same origin's path of a download URL: pdf.js fetches it under the page's CSP. */
function sameOriginPath(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

const serialize = (fields: DraftField[]) => JSON.stringify(fields.map(toInput));

// The layout with the palette beside the pages (it stays in view while they scroll); below
// it the palette sits above the pages and a press adds to the page chosen in the page list.
const SIDE_BY_SIDE = '(min-width: 60rem)';

/**
 * Places, moves, resizes and edits fields on the pages of a draft or a template: palette and
 * page list, the pages with their fields, the selected field's panel, and a bar to save.
 */
export function PrepareEditor(props: { subject: PrepareSubject; initial: DraftField[] }) {
  const { subject } = props;
  const { participants, back } = subject;
  const words = WORDS[subject.kind];
  const [fields, setFields] = useState<DraftField[]>(props.initial);
  const [saved, setSaved] = useState(() => serialize(props.initial));
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [currentPage, setCurrentPage] = useState(1);
  const [errors, setErrors] = useState<PinnedError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Where the user asked to go while changes were unsaved: asked to confirm, in the bar.
  const [leaving, setLeaving] = useState<string | null>(null);
  const [ghost, setGhost] = useState<{
    type: FieldType;
    participantId: string;
    x: number;
    y: number;
  } | null>(null);
  const pdfUrl = useMemo(() => sameOriginPath(subject.downloadUrl), [subject.downloadUrl]);
  const pdf = usePdf(pdfUrl);
  const sizes = useMemo(() => (pdf.kind === 'ready' ? pdf.sizes : []), [pdf]);
  const columnRef = useRef<HTMLDivElement>(null);
  const columnWidth = useElementWidth(columnRef);
  const pageWidth = Math.min(columnWidth, 900);
  const sheets = useRef(new Map<number, HTMLLIElement>());
  // Keys of fields to focus once drawn (a new one, or the next after a delete).
  const focusNext = useRef<string | null>(null);

  const dirty = serialize(fields) !== saved;
  const selected = fields.find((f) => f.key === selectedKey) ?? null;
  const unsigned = withoutSignature(
    fields.map((f) => ({ owner: f.participantId, type: f.type })),
    participants,
  );

  // Leaving the page (reload, closing the tab) with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    // The dashboard's own links (the back link, the header) ask in the bar instead.
    setLeaveGuard((to) => {
      setLeaving(to);
      return false;
    });
    return () => {
      window.removeEventListener('beforeunload', warn);
      setLeaveGuard(null);
    };
  }, [dirty]);

  // Side by side, the page most in view is the current one: the palette adds to what is seen.
  useEffect(() => {
    if (sizes.length === 0) return;
    const wide = window.matchMedia(SIDE_BY_SIDE);
    let frame = 0;
    const track = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (!wide.matches) return;
        let best = 0;
        let bestVisible = 0;
        for (const [n, el] of sheets.current) {
          const r = el.getBoundingClientRect();
          const visible = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
          if (visible > bestVisible) [best, bestVisible] = [n, visible];
        }
        if (best > 0) setCurrentPage(best);
      });
    };
    window.addEventListener('scroll', track, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', track);
    };
  }, [sizes.length]);

  useEffect(() => {
    const key = focusNext.current;
    if (!key) return;
    focusNext.current = null;
    const box = document.querySelector<HTMLElement>(
      `[data-field-key="${CSS.escape(key)}"] .prepare-field`,
    );
    if (box) {
      box.focus({ preventScroll: true });
      box.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  });

  const register = useCallback((n: number, el: HTMLLIElement | null) => {
    if (el) sheets.current.set(n, el);
    else sheets.current.delete(n);
  }, []);

  const pageAt = useCallback(
    (clientX: number, clientY: number): PageHit | null => {
      const el = document
        .elementsFromPoint(clientX, clientY)
        .find((e): e is HTMLElement => e instanceof HTMLElement && e.matches('.prepare-sheet'));
      const n = Number(el?.dataset.pageNumber);
      const size = sizes[n - 1];
      if (!el || !size) return null;
      const rect = el.getBoundingClientRect();
      return { pageNumber: n, rect, scale: rect.width / size.width };
    },
    [sizes],
  );

  const change = useCallback((key: string, patch: Partial<DraftField>) => {
    setFields((fs) => fs.map((f) => (f.key === key ? { ...f, ...patch } : f)));
    // What the service said of a field no longer holds once it changes.
    setErrors((es) => es.filter((e) => e.key !== key));
    setNotice(null);
    if (patch.page) setCurrentPage(patch.page);
  }, []);

  const select = useCallback(
    (key: string | null) => {
      setSelectedKey(key);
      const field = fields.find((f) => f.key === key);
      if (field) setCurrentPage(field.page);
    },
    [fields],
  );

  const remove = useCallback(
    (key: string) => {
      const index = fields.findIndex((f) => f.key === key);
      const field = fields[index];
      if (!field) return;
      setFields((fs) => fs.filter((f) => f.key !== key));
      setErrors((es) => es.filter((e) => e.key !== key));
      setSelectedKey(null);
      setNotice(`${describeField(field, participants)} deleted.`);
      // Focus goes to the next field of the same page, or the page itself.
      const next = fields.find((f, i) => i > index && f.page === field.page);
      if (next) focusNext.current = next.key;
      else sheets.current.get(field.page)?.focus({ preventScroll: true });
    },
    [fields, participants],
  );

  const addField = useCallback(
    (field: DraftField) => {
      setFields((fs) => [...fs, field]);
      setSelectedKey(field.key);
      setCurrentPage(field.page);
      focusNext.current = field.key;
      setNotice(`${describeField(field, participants)} added.`);
    },
    [participants],
  );

  const palette = useMemo<PaletteActions>(
    () => ({
      add: (type, participantId) => {
        const size = sizes[currentPage - 1];
        if (!size) return;
        // The middle of what is seen of the page, or its upper part when it is out of view;
        // lower down when a field is there already, so none hides another.
        const el = sheets.current.get(currentPage);
        let centre = { x: size.width / 2, y: size.height / 3 };
        if (el) {
          const r = el.getBoundingClientRect();
          const top = Math.max(r.top, 0);
          const bottom = Math.min(r.bottom, window.innerHeight);
          if (bottom - top > 40) {
            const scale = r.width / size.width;
            centre = { x: size.width / 2, y: ((top + bottom) / 2 - r.top) / scale };
          }
        }
        addField(freeSpot(newField(type, participantId, currentPage, size, centre), fields, size));
      },
      dragAt: setGhost,
      drop: (type, participantId, clientX, clientY) => {
        const hit = pageAt(clientX, clientY);
        const size = hit && sizes[hit.pageNumber - 1];
        if (!hit || !size) {
          setNotice('Drop a field on a page to place it.');
          return;
        }
        const centre = {
          x: (clientX - hit.rect.left) / hit.scale,
          y: (clientY - hit.rect.top) / hit.scale,
        };
        addField(newField(type, participantId, hit.pageNumber, size, centre));
      },
    }),
    [sizes, currentPage, fields, addField, pageAt],
  );

  const edit = useCallback(
    (key: string) => {
      select(key);
      // After the panel shows this field: its first property, or on a phone the button that
      // opens them.
      window.setTimeout(() => {
        const controls = document.querySelectorAll<HTMLElement>(
          '.panel-details select, .panel-details input, .panel-details textarea, .panel-toggle',
        );
        [...controls].find((c) => c.offsetParent !== null)?.focus();
      }, 0);
    },
    [select],
  );

  const layer = useMemo<LayerActions>(
    () => ({ select, change, remove, edit, pageAt, sizeOf: (n) => sizes[n - 1] }),
    [select, change, remove, edit, pageAt, sizes],
  );

  const choosePage = (n: number) => {
    setCurrentPage(n);
    sheets.current.get(n)?.scrollIntoView({ block: 'start' });
  };

  async function save(): Promise<boolean> {
    const sent = fields;
    const sentText = serialize(sent);
    setSaving(true);
    setFailure(null);
    setNotice(null);
    try {
      const answered = await subject.save(sent);
      // Keys stay, so the selection and focus survive the save; the service's values win.
      const result = answered.map((f, i) => ({
        ...f,
        key: sent.length === answered.length ? sent[i].key : f.key,
      }));
      setFields((current) => (serialize(current) === sentText ? result : current));
      setSaved(serialize(result));
      setErrors([]);
      setNotice(
        `Saved: ${result.length} ${result.length === 1 ? 'field' : 'fields'} on ${subject.name}.`,
      );
      return true;
    } catch (err) {
      const e = asApiError(err);
      if (e.status === 422 && e.fieldErrors.length > 0) {
        const pinned = pinErrors(e.fieldErrors, sent);
        setErrors(pinned);
        const first = pinned.find((p) => p.key);
        if (first?.key) {
          setSelectedKey(first.key);
          const field = sent.find((f) => f.key === first.key);
          if (field) setCurrentPage(field.page);
        }
        setFailure(
          `The fields were not saved: ${pinned.length} ${pinned.length === 1 ? 'problem' : 'problems'}, shown at ${pinned.length === 1 ? 'its field' : 'their fields'}.`,
        );
      } else {
        setFailure(`Saving failed: ${e.message}`);
      }
      return false;
    } finally {
      setSaving(false);
    }
  }

  const scale =
    pageWidth > 0 && sizes[currentPage - 1] ? pageWidth / sizes[currentPage - 1].width : 1;

  return (
    <div className="prepare">
      <PageTitle>{`${words.title}: ${subject.name}`}</PageTitle>
      <div className="prepare-bar card">
        <div className="prepare-bar-row">
          <BackOrLeave
            back={back}
            label={subject.backLabel ?? words.back}
            leaving={leaving}
            stay={() => setLeaving(null)}
          />
          <span className={`save-state${dirty ? ' unsaved' : ''}`} role="status">
            {saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
          </span>
          <button
            type="button"
            className={`button ${subject.next ? 'secondary' : 'primary'}`}
            disabled={saving || !dirty}
            onClick={() => void save()}
          >
            Save fields
          </button>
        </div>
        {unsigned.length > 0 && (
          <p className="warning-text prepare-warning">
            {words.noSignature(unsigned.map((p) => p.name).join(', '), unsigned.length === 1)}
          </p>
        )}
        {fields.length === 0 && <p className="field-hint">{words.noFields}</p>}
        {subject.next && (
          <PrepareNext
            next={subject.next}
            fields={fields}
            participants={participants}
            editor={{ dirty, saving, save }}
          />
        )}
        {notice && <StatusMessage>{notice}</StatusMessage>}
        <ErrorMessage error={failure} />
        <ErrorList
          errors={errors}
          fields={fields}
          participants={participants}
          show={(key) => {
            select(key);
            focusNext.current = key;
          }}
        />
      </div>
      <div className="prepare-grid">
        <div className="prepare-side">
          <Palette participants={participants} currentPage={currentPage} actions={palette} />
          {pdf.kind === 'ready' && sizes.length > 0 && (
            <PageList
              pdf={pdf.pdf}
              sizes={sizes}
              participants={participants}
              fields={fields}
              currentPage={currentPage}
              choose={choosePage}
            />
          )}
        </div>
        <section className="prepare-document" aria-labelledby="prepare-pages-heading">
          <h2 id="prepare-pages-heading" className="visually-hidden">
            Pages
          </h2>
          {pdf.kind === 'loading' && (
            <p className="document-status" role="status">
              Loading the document…
            </p>
          )}
          {pdf.kind === 'failed' && (
            <p className="form-error" role="alert">
              {words.unreadable}{' '}
              <a href={subject.downloadUrl} download>
                Download the PDF
              </a>{' '}
              to read it.
            </p>
          )}
          <div className="prepare-column" ref={columnRef}>
            {pdf.kind === 'ready' && (
              <ol className="prepare-sheets" aria-label={`Pages of ${subject.name}`}>
                {sizes.map((size: PageSize, i) => (
                  <PrepareSheet
                    key={i + 1}
                    pdf={pdf.pdf}
                    pageNumber={i + 1}
                    pageCount={sizes.length}
                    size={size}
                    width={pageWidth}
                    current={currentPage === i + 1}
                    register={register}
                    onPointerDown={() => {
                      setCurrentPage(i + 1);
                      setSelectedKey(null);
                    }}
                  >
                    <FieldLayer
                      fields={fields.filter((f) => f.page === i + 1)}
                      participants={participants}
                      size={size}
                      selectedKey={selectedKey}
                      errors={errors}
                      actions={layer}
                    />
                  </PrepareSheet>
                ))}
              </ol>
            )}
          </div>
        </section>
        <div className={`prepare-aside${selected ? ' editing' : ''}`}>
          <FieldPanel
            field={selected}
            fields={fields}
            participants={participants}
            participantLabel={words.participant}
            sizes={sizes}
            errors={errors}
            change={change}
            remove={remove}
            select={select}
          />
        </div>
      </div>
      {ghost && (
        <div
          className="prepare-ghost"
          aria-hidden="true"
          style={
            {
              left: ghost.x,
              top: ghost.y,
              width: DEFAULT_SIZE[ghost.type].width * scale,
              height: DEFAULT_SIZE[ghost.type].height * scale,
              '--signee': colourOf(participants, ghost.participantId),
            } as CSSProperties
          }
        >
          {TYPE_NAMES[ghost.type]}
        </div>
      )}
    </div>
  );
}
