import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { asApiError } from './api.js';
import { call } from './dashboard-api.js';
import {
  DEFAULT_SIZE,
  colourOf,
  describeField,
  fromServer,
  newField,
  pinErrors,
  propertyName,
  signeesWithoutSignature,
  toInput,
  TYPE_NAMES,
  type DraftField,
  type FieldType,
  type PageSize,
  type PinnedError,
  type Signee,
} from './prepare-fields.js';
import { FieldLayer, type LayerActions, type PageHit } from './prepare-layer.js';
import { Palette, PageList, type PaletteActions } from './prepare-palette.js';
import { FieldPanel } from './prepare-panel.js';
import { PrepareSheet, useElementWidth, usePdf } from './prepare-pdf.js';
import { Link, navigate, setLeaveGuard } from './router.js';
import type { SignetDocument } from './types.js';
import { ErrorMessage, PageTitle, StatusMessage } from './ui.js';
import { useLoad } from './use-load.js';

/** `/app/documents/:id/prepare`: place, move, resize and edit a draft's fields on its pages. */
export function PreparePage(props: { documentId: string }) {
  const params = { documentId: props.documentId };
  const loaded = useLoad(async () => {
    const [detail, fields] = await Promise.all([
      call('GET /api/documents/{documentId}', { params }),
      call('GET /api/documents/{documentId}/fields', { params }),
    ]);
    return { ...detail, fields: fields.fields };
  }, [props.documentId]);
  const back = `/app/documents/${props.documentId}`;

  if (loaded.error && !loaded.data) {
    return (
      <>
        <PageTitle>Prepare fields</PageTitle>
        <ErrorMessage error={loaded.error} />
        <Link to={back}>← Back to the document</Link>
      </>
    );
  }
  if (!loaded.data) return <p className="loading">Loading…</p>;
  const { document: doc, signees, fields } = loaded.data;
  if (doc.status !== 'draft') {
    return (
      <>
        <PageTitle>{`Prepare fields: ${doc.name}`}</PageTitle>
        <p>
          This document has been sent for signing (it is {doc.status.replace(/_/g, ' ')}): its
          fields can no longer change.
        </p>
        <Link to={back}>← Back to the document</Link>
      </>
    );
  }
  return <Editor doc={doc} signees={signees} initial={fields.map(fromServer)} back={back} />;
}

/** The same origin's path of a download URL: pdf.js fetches it under the page's CSP. */
function sameOriginPath(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

/** The field moved down (then from the top) until it covers no other field of its page. */
function freeSpot(field: DraftField, fields: DraftField[], size: PageSize): DraftField {
  const others = fields.filter((f) => f.page === field.page);
  const overlaps = (y: number) =>
    others.some(
      (o) =>
        field.x < o.x + o.width &&
        o.x < field.x + field.width &&
        y < o.y + o.height &&
        o.y < y + field.height,
    );
  const step = field.height + 6;
  for (let i = 0; i * step < size.height * 2; i++) {
    const y = (field.y + i * step) % Math.max(1, size.height - field.height);
    if (!overlaps(y)) return { ...field, y };
  }
  return field;
}

const serialize = (fields: DraftField[]) => JSON.stringify(fields.map(toInput));

// The layout with the palette beside the pages (it stays in view while they scroll); below
// it the palette sits above the pages and a press adds to the page chosen in the page list.
const SIDE_BY_SIDE = '(min-width: 60rem)';

function Editor(props: {
  doc: SignetDocument;
  signees: Signee[];
  initial: DraftField[];
  back: string;
}) {
  const { doc, signees, back } = props;
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
    signeeId: string;
    x: number;
    y: number;
  } | null>(null);
  const pdfUrl = useMemo(() => sameOriginPath(doc.downloadUrl), [doc.downloadUrl]);
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
  const unsigned = signeesWithoutSignature(fields, signees);

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
      setNotice(`${describeField(field, signees)} deleted.`);
      // Focus goes to the next field of the same page, or the page itself.
      const next = fields.find((f, i) => i > index && f.page === field.page);
      if (next) focusNext.current = next.key;
      else sheets.current.get(field.page)?.focus({ preventScroll: true });
    },
    [fields, signees],
  );

  const addField = useCallback(
    (field: DraftField) => {
      setFields((fs) => [...fs, field]);
      setSelectedKey(field.key);
      setCurrentPage(field.page);
      focusNext.current = field.key;
      setNotice(`${describeField(field, signees)} added.`);
    },
    [signees],
  );

  const palette = useMemo<PaletteActions>(
    () => ({
      add: (type, signeeId) => {
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
        addField(freeSpot(newField(type, signeeId, currentPage, size, centre), fields, size));
      },
      dragAt: setGhost,
      drop: (type, signeeId, clientX, clientY) => {
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
        addField(newField(type, signeeId, hit.pageNumber, size, centre));
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
      const res = await call('PUT /api/documents/{documentId}/fields', {
        params: { documentId: doc.id },
        json: { fields: sent.map(toInput) },
      });
      // Keys stay, so the selection and focus survive the save; the service's values win.
      const result = res.fields.map((f, i) => ({
        ...fromServer(f),
        key: sent.length === res.fields.length ? sent[i].key : f.id,
      }));
      setFields((current) => (serialize(current) === sentText ? result : current));
      setSaved(serialize(result));
      setErrors([]);
      setNotice(
        `Saved: ${result.length} ${result.length === 1 ? 'field' : 'fields'} on ${doc.name}.`,
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

  const unpinned = errors.filter((e) => !e.key);
  const pinned = errors.filter((e) => e.key);
  const scale =
    pageWidth > 0 && sizes[currentPage - 1] ? pageWidth / sizes[currentPage - 1].width : 1;

  return (
    <div className="prepare">
      <PageTitle>{`Prepare fields: ${doc.name}`}</PageTitle>
      <div className="prepare-bar card">
        <div className="prepare-bar-row">
          {leaving ? (
            <span className="confirm" role="group" aria-label="Leave without saving?">
              <span className="confirm-question">Leave without saving?</span>
              <button
                type="button"
                className="button danger small"
                autoFocus
                onClick={() => {
                  setLeaveGuard(null);
                  navigate(leaving);
                }}
              >
                Leave
              </button>
              <button
                type="button"
                className="button secondary small"
                onClick={() => setLeaving(null)}
              >
                Stay
              </button>
            </span>
          ) : (
            <Link to={back}>← Back to the document</Link>
          )}
          <span className={`save-state${dirty ? ' unsaved' : ''}`} role="status">
            {saving ? 'Saving…' : dirty ? 'Unsaved changes' : 'All changes saved'}
          </span>
          <button
            type="button"
            className="button primary"
            disabled={saving || !dirty}
            onClick={() => void save()}
          >
            Save fields
          </button>
        </div>
        {unsigned.length > 0 && (
          <p className="warning-text prepare-warning">
            Sending will be refused until every signee has a signature field:{' '}
            {unsigned.map((s) => s.name).join(', ')} {unsigned.length === 1 ? 'has' : 'have'} none.
          </p>
        )}
        {fields.length === 0 && (
          <p className="field-hint">
            Without fields, the signees sign on a page added at the end, as before.
          </p>
        )}
        {notice && <StatusMessage>{notice}</StatusMessage>}
        <ErrorMessage error={failure} />
        {(pinned.length > 0 || unpinned.length > 0) && (
          <ul className="plain-list prepare-error-list">
            {pinned.map((e, i) => {
              const field = fields.find((f) => f.key === e.key);
              if (!field) return null;
              return (
                <li key={`p${i}`}>
                  <button
                    type="button"
                    className="link-button error-text"
                    onClick={() => {
                      select(field.key);
                      focusNext.current = field.key;
                    }}
                  >
                    {describeField(field, signees)}: {propertyName(e.property)}
                    {e.message}
                  </button>
                </li>
              );
            })}
            {unpinned.map((e, i) => (
              <li key={`u${i}`} className="error-text">
                {e.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="prepare-grid">
        <div className="prepare-side">
          <Palette signees={signees} currentPage={currentPage} actions={palette} />
          {pdf.kind === 'ready' && sizes.length > 0 && (
            <PageList
              pdf={pdf.pdf}
              sizes={sizes}
              signees={signees}
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
              The document could not be shown here.{' '}
              <a href={doc.downloadUrl} download>
                Download the PDF
              </a>{' '}
              to read it.
            </p>
          )}
          <div className="prepare-column" ref={columnRef}>
            {pdf.kind === 'ready' && (
              <ol className="prepare-sheets" aria-label={`Pages of ${doc.name}`}>
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
                      signees={signees}
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
            signees={signees}
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
              '--signee': colourOf(signees, ghost.signeeId),
            } as CSSProperties
          }
        >
          {TYPE_NAMES[ghost.type]}
        </div>
      )}
    </div>
  );
}
