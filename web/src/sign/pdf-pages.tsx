import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { loadPdf } from './pdf.js';
import { PdfPage, type PageSize } from './pdf-page.js';
import { format, useSpeech } from './i18n.js';

type LoadState =
  | { kind: 'loading' }
  | { kind: 'ready'; pdf: PDFDocumentProxy; sizes: PageSize[] }
  | { kind: 'failed' };

/** Content width of an element in CSS pixels, updated (debounced) as the layout changes. */
function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      setWidth(Math.max(0, Math.floor(element.clientWidth - padding)));
    };
    measure();
    let timer: number | undefined;
    const observer = new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(measure, 120);
    });
    observer.observe(element);
    return () => {
      window.clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref]);
  return width;
}

// Fit-to-width is zoom 1; beyond it the pages scroll sideways and are drawn sharper, which is
// what makes small print readable on a phone without relying on blurry pinch-zoom.
const ZOOM_LEVELS = [1, 1.5, 2, 3];
// On wide screens a page wider than this is harder to read, not easier.
const MAX_FIT_WIDTH = 1000;

/** Every page of a PDF as canvases fitted to the column width, with zoom and a download link. */
export function PdfPages(props: {
  url: string;
  title: string;
  /** What to draw over a page (its fields), given the page's CSS pixels per PDF point. */
  overlay?: (pageNumber: number, scale: number) => ReactNode;
}) {
  const { t } = useSpeech();
  const { url, title, overlay } = props;
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [zoomIndex, setZoomIndex] = useState(0);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const columnWidth = useElementWidth(scrollerRef);
  const zoom = ZOOM_LEVELS[zoomIndex];
  const pageWidth = Math.floor(Math.min(columnWidth, MAX_FIT_WIDTH) * zoom);

  useEffect(() => {
    const task = loadPdf(url);
    let cancelled = false;
    task.promise
      .then(async (pdf) => {
        // Page sizes first (cheap), so every page holds its place before any is drawn.
        const sizes: PageSize[] = [];
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.getPage(n);
          const { width: w, height: h } = page.getViewport({ scale: 1 });
          sizes.push({ width: w, height: h });
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

  const pageCount = state.kind === 'ready' ? state.sizes.length : 0;
  return (
    <section className="document" aria-labelledby="document-heading">
      <div className="document-bar">
        <h2 id="document-heading" className="document-heading">
          {t.document}
          {pageCount > 0 && (
            <span className="page-count">
              {' '}
              · {pageCount === 1 ? t.pageCountOne : format(t.pageCountMany, { n: pageCount })}
            </span>
          )}
        </h2>
        <div className="document-tools">
          {state.kind === 'ready' && (
            <>
              <button
                type="button"
                className="button secondary small"
                aria-label={t.zoomOut}
                disabled={zoomIndex === 0}
                onClick={() => setZoomIndex((i) => Math.max(0, i - 1))}
              >
                −
              </button>
              <span className="zoom-level" aria-live="polite">
                {Math.round(zoom * 100)}%
              </span>
              <button
                type="button"
                className="button secondary small"
                aria-label={t.zoomIn}
                disabled={zoomIndex === ZOOM_LEVELS.length - 1}
                onClick={() => setZoomIndex((i) => Math.min(ZOOM_LEVELS.length - 1, i + 1))}
              >
                +
              </button>
            </>
          )}
          <a className="button secondary small" href={url} download={`${title}.pdf`}>
            {t.downloadPdf}
          </a>
        </div>
      </div>
      {state.kind === 'loading' && (
        <p className="document-status" role="status">
          {t.loadingDocument}
        </p>
      )}
      {state.kind === 'failed' && (
        <p className="document-status error-text" role="alert">
          {t.documentNotShown}
        </p>
      )}
      {/* Scrolls sideways when zoomed: focusable, so the keyboard scrolls it too (its fields are
          disabled once signed, and then nothing inside takes the focus). */}
      <div
        className="pages-scroller"
        ref={scrollerRef}
        tabIndex={0}
        role="region"
        aria-label={format(t.pagesOf, { title })}
      >
        <ol
          className="pages"
          aria-label={format(t.pagesOf, { title })}
          style={pageWidth > 0 ? { width: pageWidth } : undefined}
        >
          {state.kind === 'ready' &&
            state.sizes.map((size, i) => (
              <PdfPage
                key={i + 1}
                pdf={state.pdf}
                pageNumber={i + 1}
                pageCount={state.sizes.length}
                size={size}
                width={pageWidth}
                overlay={overlay?.(i + 1, pageWidth > 0 ? pageWidth / size.width : 1)}
              />
            ))}
        </ol>
      </div>
    </section>
  );
}
