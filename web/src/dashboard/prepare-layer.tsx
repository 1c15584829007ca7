import { useRef, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import {
  clampBox,
  colourOf,
  describeField,
  MIN_SIZE,
  TYPE_NAMES,
  type DraftField,
  type PageSize,
  type PinnedError,
  type Participant,
} from './prepare-fields.js';

/** A page under a point of the screen, with its CSS pixels per point. */
export type PageHit = { pageNumber: number; rect: DOMRect; scale: number };

type Box = Pick<DraftField, 'x' | 'y' | 'width' | 'height'>;

/** What the fields of a page ask of the editor. */
export type LayerActions = {
  select: (key: string | null) => void;
  /** Live changes while dragging or typing. */
  change: (key: string, patch: Partial<DraftField>) => void;
  remove: (key: string) => void;
  /** Moves the focus to the field's properties in the panel. */
  edit: (key: string) => void;
  /** The page under a screen point, if any. */
  pageAt: (clientX: number, clientY: number) => PageHit | null;
  sizeOf: (pageNumber: number) => PageSize | undefined;
};

let scrollTimer = 0;
let scrollSpeed = 0;

/**
 * Scrolls the window while a dragging pointer is near its top or bottom edge, so a field can
 * be carried to a page out of view; null stops it.
 */
export function autoScroll(clientY: number | null) {
  const edge = 56;
  scrollSpeed =
    clientY === null ? 0 : clientY > window.innerHeight - edge ? 14 : clientY < edge ? -14 : 0;
  if (scrollSpeed === 0) {
    window.clearInterval(scrollTimer);
    scrollTimer = 0;
  } else if (!scrollTimer) {
    scrollTimer = window.setInterval(() => window.scrollBy(0, scrollSpeed), 16);
  }
}

// A box in percentages of its page, so it follows the page at every width.
const place = (f: Box, page: PageSize): CSSProperties => ({
  left: `${(f.x / page.width) * 100}%`,
  top: `${(f.y / page.height) * 100}%`,
  width: `${(f.width / page.width) * 100}%`,
  height: `${(f.height / page.height) * 100}%`,
});

/** The fields of one page, drawn over it: each one moved by dragging, resized by its handle. */
export function FieldLayer(props: {
  fields: DraftField[];
  participants: Participant[];
  size: PageSize;
  selectedKey: string | null;
  errors: PinnedError[];
  actions: LayerActions;
}) {
  return (
    <div className="prepare-layer">
      {props.fields.map((f) => (
        <FieldBox
          key={f.key}
          field={f}
          participants={props.participants}
          size={props.size}
          selected={props.selectedKey === f.key}
          errors={props.errors.filter((e) => e.key === f.key)}
          actions={props.actions}
        />
      ))}
    </div>
  );
}

type Drag = {
  mode: 'move' | 'resize';
  pointerId: number;
  /** Where the pointer went down, in page (document) pixels: the window may scroll meanwhile. */
  startX: number;
  startY: number;
  scale: number;
  origin: DraftField;
  /** Where in the box (points) it was grabbed. */
  grab: { x: number; y: number };
  moved: boolean;
};

function FieldBox(props: {
  field: DraftField;
  participants: Participant[];
  size: PageSize;
  selected: boolean;
  errors: PinnedError[];
  actions: LayerActions;
}) {
  const { field, size, actions, selected, errors } = props;
  const drag = useRef<Drag | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const name = describeField(field, props.participants);
  const errorId = `field-error-${field.key}`;

  function start(event: PointerEvent<HTMLElement>, mode: Drag['mode']) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    const sheet = event.currentTarget.closest<HTMLElement>('.prepare-sheet');
    if (!sheet) return;
    const rect = sheet.getBoundingClientRect();
    const scale = rect.width / size.width;
    actions.select(field.key);
    boxRef.current?.focus({ preventScroll: true });
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = {
      mode,
      pointerId: event.pointerId,
      startX: event.clientX + window.scrollX,
      startY: event.clientY + window.scrollY,
      scale,
      origin: field,
      grab: {
        x: (event.clientX - rect.left) / scale - field.x,
        y: (event.clientY - rect.top) / scale - field.y,
      },
      moved: false,
    };
  }

  function move(event: PointerEvent<HTMLElement>) {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    const px = event.clientX + window.scrollX - d.startX;
    const py = event.clientY + window.scrollY - d.startY;
    if (!d.moved && Math.hypot(px, py) < 3) return;
    d.moved = true;
    if (d.mode === 'move') autoScroll(event.clientY);
    const dx = px / d.scale;
    const dy = py / d.scale;
    const o = d.origin;
    if (d.mode === 'move') {
      const box = clampBox({ x: o.x + dx, y: o.y + dy, width: o.width, height: o.height }, size);
      actions.change(field.key, { x: box.x, y: box.y });
    } else {
      actions.change(field.key, {
        width: Math.min(Math.max(MIN_SIZE, o.width + dx), size.width - o.x),
        height: Math.min(Math.max(MIN_SIZE, o.height + dy), size.height - o.y),
      });
    }
  }

  function end(event: PointerEvent<HTMLElement>) {
    const d = drag.current;
    if (!d || d.pointerId !== event.pointerId) return;
    drag.current = null;
    autoScroll(null);
    if (d.mode !== 'move' || !d.moved) return;
    // Dropped on another page: the field goes there, where the pointer left it.
    const hit = actions.pageAt(event.clientX, event.clientY);
    const target = hit && actions.sizeOf(hit.pageNumber);
    if (!hit || !target || hit.pageNumber === field.page) return;
    const box = clampBox(
      {
        x: (event.clientX - hit.rect.left) / hit.scale - d.grab.x,
        y: (event.clientY - hit.rect.top) / hit.scale - d.grab.y,
        width: d.origin.width,
        height: d.origin.height,
      },
      target,
    );
    actions.change(field.key, { page: hit.pageNumber, ...box });
  }

  function cancel() {
    drag.current = null;
    autoScroll(null);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? 10 : 1;
    const arrows: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const arrow = arrows[event.key];
    if (arrow) {
      event.preventDefault();
      const [dx, dy] = arrow;
      if (event.altKey) {
        // Alt with an arrow resizes from the bottom-right corner, as the handle does.
        actions.change(field.key, {
          width: Math.min(Math.max(MIN_SIZE, field.width + dx), size.width - field.x),
          height: Math.min(Math.max(MIN_SIZE, field.height + dy), size.height - field.y),
        });
      } else {
        const box = clampBox({ ...field, x: field.x + dx, y: field.y + dy }, size);
        actions.change(field.key, { x: box.x, y: box.y });
      }
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      actions.remove(field.key);
    } else if (event.key === 'Escape') {
      actions.select(null);
    } else if (event.key === 'Enter' || event.key === ' ') {
      // Like a button: pressed, it opens the field's properties in the panel.
      event.preventDefault();
      actions.edit(field.key);
    }
  }

  const style = {
    ...place(field, size),
    '--signee': colourOf(props.participants, field.participantId),
  } as CSSProperties;
  return (
    <div
      className={`prepare-field-wrap${selected ? ' selected' : ''}${errors.length > 0 ? ' invalid' : ''}`}
      style={style}
      data-field-key={field.key}
      data-field-type={field.type}
      data-page={field.page}
    >
      <div
        ref={boxRef}
        role="button"
        tabIndex={0}
        className="prepare-field"
        aria-label={name}
        aria-pressed={selected}
        aria-invalid={errors.length > 0 ? true : undefined}
        aria-describedby={errors.length > 0 ? errorId : undefined}
        aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Alt+ArrowUp Alt+ArrowDown Alt+ArrowLeft Alt+ArrowRight Delete Enter Escape"
        onFocus={() => {
          if (!selected) actions.select(field.key);
        }}
        onKeyDown={onKeyDown}
        onPointerDown={(e) => start(e, 'move')}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={cancel}
      >
        <span className="prepare-field-name" aria-hidden="true">
          {field.label.trim() || TYPE_NAMES[field.type]}
        </span>
      </div>
      {selected && (
        <>
          <span
            className="prepare-field-resize"
            aria-hidden="true"
            title="Drag to resize"
            onPointerDown={(e) => start(e, 'resize')}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={cancel}
          />
          <button
            type="button"
            className="prepare-field-delete"
            aria-label={`Delete ${name}`}
            onClick={() => actions.remove(field.key)}
          >
            ×
          </button>
        </>
      )}
      {errors.length > 0 && (
        <span className="prepare-field-error" id={errorId}>
          {errors.map((e) => e.message).join(' · ')}
        </span>
      )}
    </div>
  );
}
