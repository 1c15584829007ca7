import {
  RenderingCancelledException,
  TextLayer,
  type PDFDocumentProxy,
  type RenderTask,
} from 'pdfjs-dist';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { format, useSpeech } from './i18n.js';

/** A page's size in PDF points at scale 1. */
export type PageSize = { width: number; height: number };

// Chromium refuses canvases much above this area; tall pages on dense screens are drawn at a
// lower device-pixel scale instead of failing to draw at all.
const MAX_CANVAS_PIXELS = 4096 * 4096;

/**
 * One PDF page: its place is held from the start (aspect ratio), and it is drawn (canvas plus a
 * selectable, screen-reader-readable text layer) only while near the viewport, so a 300-page
 * document never holds 300 full-size canvases in memory.
 */
export function PdfPage(props: {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  pageCount: number;
  size: PageSize;
  /** Width of the column in CSS pixels; 0 until measured. */
  width: number;
  /** Drawn over the page (the signee's fields), whether or not the page itself is drawn yet. */
  overlay?: ReactNode;
}) {
  const { t } = useSpeech();
  const { pdf, pageNumber, pageCount, size, width, overlay } = props;
  const itemRef = useRef<HTMLLIElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const item = itemRef.current;
    if (!item) return;
    const observer = new IntersectionObserver(
      (entries) => setNear(entries.some((e) => e.isIntersecting)),
      { rootMargin: '200% 0px' },
    );
    observer.observe(item);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!canvas || !text) return;
    if (!near || width <= 0) {
      canvas.width = 0;
      canvas.height = 0;
      text.replaceChildren();
      setRendered(false);
      return;
    }
    // Marks the page as drawing until this width is on screen (tests and screenshots wait on it).
    setRendered(false);
    let cancelled = false;
    let renderTask: RenderTask | null = null;
    let textLayer: TextLayer | null = null;
    const draw = async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      const area = viewport.width * viewport.height;
      const outputScale = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / area),
      );
      canvas.width = Math.floor(viewport.width * outputScale);
      canvas.height = Math.floor(viewport.height * outputScale);
      renderTask = page.render({
        canvas,
        viewport,
        transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
      });
      await renderTask.promise;
      if (cancelled) return;
      text.replaceChildren();
      textLayer = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: text,
        viewport,
      });
      await textLayer.render();
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
      renderTask?.cancel();
      textLayer?.cancel();
    };
  }, [near, width, pdf, pageNumber]);

  const style = {
    aspectRatio: `${size.width} / ${size.height}`,
    '--scale-factor': width > 0 ? width / size.width : 1,
  } as CSSProperties;
  return (
    <li
      ref={itemRef}
      className="pdf-page"
      style={style}
      data-page-number={pageNumber}
      data-rendered={rendered ? 'true' : 'false'}
    >
      <span className="visually-hidden">
        {format(t.pageOf, { page: pageNumber, count: pageCount })}
      </span>
      <canvas ref={canvasRef} className="pdf-canvas" aria-hidden="true" />
      <div ref={textRef} className="textLayer" />
      {overlay}
      {failed && (
        <p className="page-error" role="alert">
          {format(t.pageNotDrawn, { page: pageNumber })}
        </p>
      )}
    </li>
  );
}
