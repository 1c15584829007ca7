import { getDocument, GlobalWorkerOptions, version, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

// The worker is a same-origin module file from our own bundle, so the CSP's worker-src (which
// falls back to script-src 'self') allows it and pdf.js never wraps it in a blob: URL.
GlobalWorkerOptions.workerSrc = workerUrl;

// Copied into dist by web/vite.config.ts; absolute so the worker resolves them the same way.
const resources = new URL(`/assets/pdfjs-${version}/`, window.location.origin).href;

/** Starts loading a same-origin PDF with pdf.js, configured for the service's strict CSP. */
export function loadPdf(url: string): PDFDocumentLoadingTask {
  return getDocument({
    url,
    withCredentials: false,
    standardFontDataUrl: `${resources}standard_fonts/`,
    cMapUrl: `${resources}cmaps/`,
    cMapPacked: true,
    wasmUrl: `${resources}wasm/`,
    // The CSP has no 'wasm-unsafe-eval': without this pdf.js would try WebAssembly first and
    // log a CSP violation before falling back to its JS decoders for every image kind.
    useWasm: false,
    // Nothing in the signing page needs PDF JavaScript, XFA forms or annotation editing.
    enableXfa: false,
    stopAtErrors: false,
  });
}
