import SignaturePad from 'signature_pad';
import { useEffect, useRef } from 'react';
import { useSpeech } from './i18n.js';

/**
 * A signature_pad canvas with a Clear button. Reports the drawing as a PNG data URL after every
 * stroke (null when empty), so the form never has to reach into the pad.
 */
export function DrawnSignature(props: {
  onChange: (image: string | null) => void;
  error: string | null;
  disabled: boolean;
}) {
  const { onChange, error, disabled } = props;
  const { t } = useSpeech();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const pad = new SignaturePad(canvas, { penColor: '#14215a', minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;
    const report = () => onChangeRef.current(pad.isEmpty() ? null : pad.toDataURL('image/png'));
    // Sharp strokes on dense screens: the backing store follows devicePixelRatio, and the points
    // (kept in CSS pixels) are replayed after a resize instead of being lost.
    let lastWidth = 0;
    const fit = () => {
      // Hidden (the Type choice is showing): keep the drawing as it is until shown again.
      if (canvas.offsetWidth === 0 || canvas.offsetWidth === lastWidth) return;
      lastWidth = canvas.offsetWidth;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const data = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.fromData(data);
      if (!pad.isEmpty()) report();
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    pad.addEventListener('endStroke', report);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', report);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (disabled) pad.off();
    else pad.on();
  }, [disabled]);

  const clear = () => {
    padRef.current?.clear();
    onChange(null);
  };

  return (
    <div className="field">
      <p className="field-label" id="drawn-signature-label">
        {t.drawLabel}
      </p>
      <p className="field-hint" id="drawn-signature-hint">
        {t.drawHint}
      </p>
      <div className={`signature-pad${error ? ' invalid' : ''}`}>
        <canvas
          ref={canvasRef}
          className="signature-canvas"
          role="img"
          aria-labelledby="drawn-signature-label"
          aria-describedby={`drawn-signature-hint${error ? ' drawn-signature-error' : ''}`}
          data-testid="signature-canvas"
        />
        <span className="signature-line" aria-hidden="true" />
      </div>
      <div className="field-row">
        <button
          type="button"
          className="button secondary small"
          onClick={clear}
          disabled={disabled}
        >
          {t.clear}
        </button>
      </div>
      {error && (
        <p className="field-error" id="drawn-signature-error">
          {error}
        </p>
      )}
    </div>
  );
}
