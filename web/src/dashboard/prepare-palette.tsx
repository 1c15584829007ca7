import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useRef, type CSSProperties, type PointerEvent } from 'react';
import { autoScroll } from './prepare-layer.js';
import {
  colourOf,
  FIELD_TYPES,
  TYPE_NAMES,
  type DraftField,
  type FieldType,
  type PageSize,
  type Participant,
} from './prepare-fields.js';
import { PageThumbnail } from './prepare-pdf.js';

/** What the palette asks of the editor. */
export type PaletteActions = {
  /** A button pressed (click, Enter, Space): the field goes to the current page. */
  add: (type: FieldType, participantId: string) => void;
  /** A button dragged: where the pointer is now (null when the drag ends or is abandoned). */
  dragAt: (item: { type: FieldType; participantId: string; x: number; y: number } | null) => void;
  /** A button dropped at a screen point. */
  drop: (type: FieldType, participantId: string, clientX: number, clientY: number) => void;
};

/**
 * For each participant (signee or role), in their colour, a button per field type: drag it onto
 * a page, or press it.
 */
export function Palette(props: {
  participants: Participant[];
  currentPage: number;
  actions: PaletteActions;
}) {
  return (
    <section className="card prepare-palette" aria-labelledby="palette-heading">
      <h2 id="palette-heading">Add fields</h2>
      <p className="field-hint" id="palette-hint">
        Drag a field onto a page, or press it to add it to page {props.currentPage}.
      </p>
      {props.participants.map((participant) => (
        <div
          key={participant.id}
          className="palette-signee"
          role="group"
          aria-label={`Fields for ${participant.name}`}
          style={{ '--signee': colourOf(props.participants, participant.id) } as CSSProperties}
        >
          <p className="palette-signee-name">
            <span className="palette-swatch" aria-hidden="true" />
            <span className="break">{participant.name}</span>
          </p>
          <div className="palette-types">
            {FIELD_TYPES.map((type) => (
              <PaletteButton
                key={type}
                type={type}
                participant={participant}
                actions={props.actions}
              />
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}

type Press = { pointerId: number; x: number; y: number; dragging: boolean };

function PaletteButton(props: {
  type: FieldType;
  participant: Participant;
  actions: PaletteActions;
}) {
  const { type, participant, actions } = props;
  const press = useRef<Press | null>(null);
  // A drag ends in a click on the button itself (the pointer was captured): that click is not
  // a press.
  const swallowClick = useRef(false);

  function onPointerDown(event: PointerEvent<HTMLButtonElement>) {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    press.current = {
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      dragging: false,
    };
  }
  function onPointerMove(event: PointerEvent<HTMLButtonElement>) {
    const p = press.current;
    if (!p || p.pointerId !== event.pointerId) return;
    if (!p.dragging && Math.hypot(event.clientX - p.x, event.clientY - p.y) < 5) return;
    p.dragging = true;
    autoScroll(event.clientY);
    actions.dragAt({ type, participantId: participant.id, x: event.clientX, y: event.clientY });
  }
  function onPointerUp(event: PointerEvent<HTMLButtonElement>) {
    const p = press.current;
    press.current = null;
    if (!p || p.pointerId !== event.pointerId || !p.dragging) return;
    autoScroll(null);
    swallowClick.current = true;
    window.setTimeout(() => (swallowClick.current = false), 0);
    actions.dragAt(null);
    actions.drop(type, participant.id, event.clientX, event.clientY);
  }
  function onPointerCancel() {
    autoScroll(null);
    if (press.current?.dragging) actions.dragAt(null);
    press.current = null;
  }

  return (
    <button
      type="button"
      className={`palette-item palette-${type}`}
      aria-label={`Add ${TYPE_NAMES[type]} field for ${participant.name}`}
      aria-describedby="palette-hint"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onClick={() => {
        if (swallowClick.current) {
          swallowClick.current = false;
          return;
        }
        actions.add(type, participant.id);
      }}
    >
      {TYPE_NAMES[type]}
    </button>
  );
}

/** The pages, with how many fields each has: choosing one makes it the page fields go to. */
export function PageList(props: {
  pdf: PDFDocumentProxy;
  sizes: PageSize[];
  participants: Participant[];
  fields: DraftField[];
  currentPage: number;
  choose: (pageNumber: number) => void;
}) {
  const pages = props.sizes.map((_, i) => i + 1);
  return (
    <nav className="card prepare-pages-nav" aria-labelledby="page-list-heading">
      <h2 id="page-list-heading">Pages</h2>
      <ol className="page-list">
        {pages.map((n) => {
          const onPage = props.fields.filter((f) => f.page === n);
          const count = onPage.length;
          return (
            <li key={n}>
              <button
                type="button"
                className="page-chip"
                aria-current={props.currentPage === n ? 'true' : undefined}
                onClick={() => props.choose(n)}
              >
                <PageThumbnail
                  pdf={props.pdf}
                  pageNumber={n}
                  size={props.sizes[n - 1]}
                  marks={onPage.map((f) => ({
                    key: f.key,
                    x: f.x,
                    y: f.y,
                    width: f.width,
                    height: f.height,
                    colour: colourOf(props.participants, f.participantId),
                  }))}
                />
                <span className="page-chip-name">Page {n}</span>
                <span className="page-chip-count">
                  {count} {count === 1 ? 'field' : 'fields'}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
