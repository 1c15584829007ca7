import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { FieldError } from '../shared/http.js';
import type { UploadProgress } from './api.js';
import { Link, navigate } from './router.js';
import { ErrorMessage, Field, PageTitle, StatusMessage } from './ui.js';
import type { useSubmit } from './use-submit.js';
import './setup.css';

/** The largest PDF the service takes is one byte under this (decisions §4: below 50 MiB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** A size as people read it: "12.4 MB" (in MiB, like the limit). */
export function fileSize(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return mib >= 0.1 ? `${mib.toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** What an upload reports while it runs, and how it is stopped. */
export type Transfer = { onProgress: (progress: UploadProgress) => void; signal: AbortSignal };

/**
 * The PDF to upload: a file input inside a drop zone (a file dropped on it is taken too), the
 * chosen file's name and size, and its error.
 */
function PdfDropField(props: {
  id: string;
  file: File | null;
  error?: string;
  onChange: (file: File | null) => void;
}) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <div
      className={`drop-zone${over ? ' over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        const dropped = e.dataTransfer.files;
        if (dropped.length === 0) return;
        if (input.current) input.current.files = dropped;
        props.onChange(dropped[0]);
      }}
    >
      <Field
        id={props.id}
        label="PDF file"
        hint="A PDF under 50 MB. Choose it, or drop it here."
        error={props.error}
      >
        {(control) => (
          <input
            {...control}
            ref={input}
            type="file"
            accept="application/pdf,.pdf"
            onChange={(e) => props.onChange(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      {props.file && (
        <p className="field-hint" data-testid="chosen-file">
          Chosen: {props.file.name} ({fileSize(props.file.size)})
        </p>
      )}
    </div>
  );
}

/**
 * An upload page: what comes above its title, its title, the way back, the form's errors, the
 * PDF (refused here when it is 50 MB or more, before anything is sent), the page's own fields
 * and the submit button. While the file goes up, a progress bar shows the bytes sent and Cancel
 * stops it (the service keeps nothing of a cut-off request). The multipart body is the tenant,
 * the page's `parts`, then the file; `send` posts it and names the page to go to.
 */
export function UploadForm(props: {
  title: string;
  above?: ReactNode;
  back: { to: string; label: string };
  tenantId: string;
  fileId: string;
  file: File | null;
  onFile: (file: File | null) => void;
  fileError?: string;
  parts: (form: FormData) => void;
  send: (form: FormData, transfer: Transfer) => Promise<string>;
  upload: ReturnType<typeof useSubmit>;
  otherErrors: FieldError[];
  submitLabel: string;
  children: ReactNode;
}) {
  const { file, upload } = props;
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [tooBig, setTooBig] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  function choose(chosen: File | null) {
    setTooBig(null);
    setNotice(null);
    props.onFile(chosen);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    if (file && file.size >= MAX_UPLOAD_BYTES) {
      setTooBig(
        `PDF file is ${fileSize(file.size)}: the limit is 50 MB. Nothing was uploaded; choose a smaller file (or compress this one).`,
      );
      document.getElementById(props.fileId)?.focus();
      return;
    }
    setTooBig(null);
    void upload.submit(async () => {
      const form = new FormData();
      form.append('tenantId', props.tenantId);
      props.parts(form);
      // The file goes last: the service streams it, having read the other parts first.
      if (file) form.append('file', file, file.name);
      const abort = new AbortController();
      controller.current = abort;
      setProgress({ loaded: 0, total: file?.size ?? 0 });
      try {
        navigate(await props.send(form, { onProgress: setProgress, signal: abort.signal }));
      } catch (err) {
        if (!(err instanceof DOMException && err.name === 'AbortError')) throw err;
        setNotice('Upload cancelled: nothing was saved.');
      } finally {
        controller.current = null;
        setProgress(null);
      }
    });
  }

  const percent =
    progress && progress.total > 0 ? Math.floor((progress.loaded / progress.total) * 100) : 0;
  return (
    <>
      {props.above}
      <PageTitle>{props.title}</PageTitle>
      <p>
        <Link to={props.back.to}>{props.back.label}</Link>
      </p>
      <form className="card form" onSubmit={onSubmit} noValidate>
        <ErrorMessage error={upload.message} />
        {props.otherErrors.map((e) => (
          <ErrorMessage key={e.path} error={e.message} />
        ))}
        <PdfDropField
          id={props.fileId}
          file={file}
          error={tooBig ?? props.fileError}
          onChange={choose}
        />
        {props.children}
        {progress ? (
          <div className="upload-progress">
            <label htmlFor={`${props.fileId}-progress`}>
              {percent < 100
                ? `Uploading ${file?.name ?? 'the file'}: ${percent}%`
                : 'Checking the PDF…'}
            </label>
            <progress id={`${props.fileId}-progress`} max={100} value={percent} />
            <div className="button-row">
              <button
                type="button"
                className="button secondary"
                onClick={() => controller.current?.abort()}
              >
                Cancel upload
              </button>
            </div>
          </div>
        ) : (
          <div className="button-row">
            <button type="submit" className="button primary" disabled={upload.busy}>
              {props.submitLabel}
            </button>
          </div>
        )}
        {notice && <StatusMessage>{notice}</StatusMessage>}
      </form>
    </>
  );
}
