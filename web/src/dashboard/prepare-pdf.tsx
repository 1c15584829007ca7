import { RenderingCancelledException, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type RefObject,
} from 'react';
import { loadPdf } from '../sign/pdf.js';
import type { PageSize } from './prepare-fields.js';

export type PdfState =
  | { kind: 'loading' }
  | { kind: 'ready'; pdf: PDFDocumentProxy; sizes: PageSize[] }
  | { kind: 'failed' };

/**
 * Loads a PDF with pdf.js (the signing page's loader, set up for the service's CSP) and reads
 * every page's size as displayed: scale 1 of pdf.js's viewport, the points fields are placed in.
 */
export function usePdf(url: string | null): PdfState {
  const [state, setState] = useState<PdfState>({ kind: 'loading' });
  useEffect(() => {
    if (!url) return;
    const task = loadPdf(url);
    let cancelled = false;
    task.promise
      .then(async (pdf) => {
        const sizes: PageSize[] = [];
        for (let n = 1; n <= pdf.numPages; n++) {
          const { width, height } = (await pdf.getPage(n)).getViewport({ scale: 1 });
          sizes.push({ width, height });
        }
        if (!cancelled) setState({ kind: 'ready', pdf, sizes });
      })
      .catch(() => {
        if (!cancelled) setState({ kind: 'failed' });
      });
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [url]);
  return state;
}

/** Content width of an element in CSS pixels, updated (debounced) as the layout changes. */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(0, Math.floor(element.clientWidth)));
    measure();
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(measure, 100);
    });
    observer.observe(element);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref]);
  return width;
}

// Chromium refuses canvases much above this area.
const MAX_CANVAS_PIXELS = 4096 * 4096;

/**
 * One page of the draft at a width, drawn only while near the viewport, with the fields layer
 * over it. Its place (aspect ratio) is held from the start, so fields can be placed before the
 * page is drawn.
 */
export function PrepareSheet(props: {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  pageCount: number;
  size: PageSize;
  width: number;
  current: boolean;
  /** Stable: told of the page's element, for hit tests and scrolling. */
  register: (pageNumber: number, element: HTMLLIElement | null) => void;
  onPointerDown: () => void;
  children: ReactNode;
}) {
  const { pdf, pageNumber, size, width, register } = props;
  const itemRef = useRef<HTMLLIElement | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const setItem = useCallback(
    (element: HTMLLIElement | null) => {
      itemRef.current = element;
      register(pageNumber, element);
    },
    [register, pageNumber],
  );
  const [near, setNear] = useState(false);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const item = itemRef.current;
    if (!item) return;
    const observer = new IntersectionObserver(
      (entries) => setNear(entries.some((e) => e.isIntersecting)),
      { rootMargin: '150% 0px' },
    );
    observer.observe(item);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    if (!near || width <= 0) {
      canvas.width = 0;
      canvas.height = 0;
      setRendered(false);
      return;
    }
    setRendered(false);
    let cancelled = false;
    let task: RenderTask | null = null;
    const draw = async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      const outputScale = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
      );
      canvas.width = Math.floor(viewport.width * outputScale);
      canvas.height = Math.floor(viewport.height * outputScale);
      task = page.render({
        canvas,
        viewport,
        transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
      });
      await task.promise;
      if (cancelled) return;
      setFailed(false);
      setRendered(true);
    };
    draw().catch((err: unknown) => {
      if (cancelled || err instanceof RenderingCancelledException) return;
      setFailed(true);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [near, width, pdf, pageNumber]);

  const style: CSSProperties = {
    aspectRatio: `${size.width} / ${size.height}`,
    width: width > 0 ? width : undefined,
  };
  return (
    <li
      ref={setItem}
      tabIndex={-1}
      className={`pdf-page prepare-sheet${props.current ? ' current' : ''}`}
      style={style}
      data-page-number={pageNumber}
      data-rendered={rendered ? 'true' : 'false'}
      aria-label={`Page ${pageNumber} of ${props.pageCount}`}
      onPointerDown={(e) => {
        // The page itself, not one of its fields (they handle their own pointer).
        if (!(e.target as Element).closest('.prepare-field-wrap')) props.onPointerDown();
      }}
    >
      <canvas ref={canvasRef} className="prepare-canvas" aria-hidden="true" />
      {props.children}
      {failed && (
        <p className="prepare-page-error" role="alert">
          Page {pageNumber} could not be drawn; its fields can still be placed.
        </p>
      )}
    </li>
  );
}

/** Thumbnail width in CSS pixels. */
const THUMB_WIDTH = 72;

/**
 * A small picture of a page, drawn once when it first comes near the view (a long document's
 * thumbnails are not all drawn at once), with its fields as marks in their signees' colours.
 */
export function PageThumbnail(props: {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  size: PageSize;
  marks: Array<{
    key: string;
    x: number;
    y: number;
    width: number;
    height: number;
    colour: string;
  }>;
}) {
  const { pdf, pageNumber, size } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(false);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(canvas);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !near) return;
    let cancelled = false;
    let task: RenderTask | null = null;
    const draw = async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const viewport = page.getViewport({ scale: THUMB_WIDTH / size.width });
      const scale = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * scale);
      canvas.height = Math.floor(viewport.height * scale);
      task = page.render({
        canvas,
        viewport,
        transform: scale === 1 ? undefined : [scale, 0, 0, scale, 0, 0],
      });
      await task.promise;
      if (!cancelled) setDrawn(true);
    };
    draw().catch(() => undefined);
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [near, pdf, pageNumber, size.width]);

  const percent = (v: number, of: number) => `${(v / of) * 100}%`;
  return (
    <span
      className="page-thumb"
      style={{ aspectRatio: `${size.width} / ${size.height}` }}
      data-drawn={drawn ? 'true' : 'false'}
      aria-hidden="true"
    >
      <canvas ref={canvasRef} className="page-thumb-canvas" />
      {props.marks.map((m) => (
        <span
          key={m.key}
          className="page-thumb-mark"
          style={{
            left: percent(m.x, size.width),
            top: percent(m.y, size.height),
            width: percent(m.width, size.width),
            height: percent(m.height, size.height),
            background: m.colour,
          }}
        />
      ))}
    </span>
  );
}
