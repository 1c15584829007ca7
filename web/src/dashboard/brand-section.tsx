import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { readJsonResponse } from '../shared/http.js';
import type * as Api from '../../../server/src/api-types.js';
import { asApiError, fieldError, otherErrors } from './api.js';
import { BrandPreview, buttonTextNote, previewBrand } from './brand-preview.js';
import { call } from './dashboard-api.js';
import type { Tenant } from './types.js';
import { ConfirmButton, ErrorMessage, Field, StatusMessage, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useSubmit } from './use-submit.js';
import './brand-section.css';

/** Signet's own accent: what the colour picker shows while the tenant has none. */
const SIGNET_ACCENT = '#2147c4';
const COLOR = /^#[0-9a-f]{6}$/i;

// PUT /api/tenants/{id}/logo takes the file itself as its body, which `call` (JSON or
// multipart) does not send.
async function uploadLogo(tenantId: string, file: File): Promise<Api.TenantLogo> {
  const response = await fetch(`/api/tenants/${encodeURIComponent(tenantId)}/logo`, {
    method: 'PUT',
    headers: {
      accept: 'application/json',
      'content-type': file.type || 'application/octet-stream',
    },
    body: file,
    credentials: 'same-origin',
  });
  return (await readJsonResponse<{ logo: Api.TenantLogo }>(response, null)).logo;
}

/**
 * The tenant's brand (decisions §13): name, colour and logo, with live previews of the signing
 * page and an e-mail. Owners and admins change it; members see it.
 */
export function BrandSection(props: { tenant: Tenant }) {
  const { tenant } = props;
  const canEdit = tenant.role !== 'member';
  const params = { tenantId: tenant.id };
  const loaded = useLoad(
    async () => ({
      settings: (await call('GET /api/tenants/{tenantId}/settings', { params })).settings,
      logo: (await call('GET /api/tenants/{tenantId}/logo', { params })).logo,
    }),
    [tenant.id],
  );
  const [name, setName] = useState('');
  const [color, setColor] = useState('');
  const [logo, setLogo] = useState<Api.TenantLogo | null>(null);
  const [saved, setSaved] = useState(false);
  const [logoBusy, setLogoBusy] = useState(false);
  const [logoError, setLogoError] = useState<string | null>(null);
  const [logoStatus, setLogoStatus] = useState<string | null>(null);
  const save = useSubmit();
  const id = useId();
  useEffect(() => {
    if (!loaded.data) return;
    setName(loaded.data.settings.brandName ?? '');
    setColor(loaded.data.settings.brandColor ?? '');
    setLogo(loaded.data.logo);
  }, [loaded.data]);

  function onSave(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    void save.submit(async () => {
      const result = await call('PATCH /api/tenants/{tenantId}/settings', {
        params,
        // Sent as typed: the service trims the name and explains a bad colour next to its field.
        json: { brandName: name.trim() === '' ? null : name, brandColor: color.trim() || null },
      });
      setName(result.settings.brandName ?? '');
      setColor(result.settings.brandColor ?? '');
      setSaved(true);
    });
  }

  async function runLogo(work: () => Promise<void>, done: string) {
    setLogoBusy(true);
    setLogoError(null);
    setLogoStatus(null);
    try {
      await work();
      setLogoStatus(done);
    } catch (err) {
      setLogoError(asApiError(err).message);
    } finally {
      setLogoBusy(false);
    }
  }

  function onLogoChosen(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    void runLogo(async () => {
      setLogo(await uploadLogo(tenant.id, file));
      input.value = '';
    }, 'Logo uploaded.');
  }

  const brand = previewBrand({ name, color, logoUrl: logo?.url ?? null });
  const colorError = fieldError(save.errors, 'brandColor', 'Brand colour');
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Brand</h2>
      <p className="field-hint">
        Your name, colour and logo on the signing page and in every e-mail about your documents.
      </p>
      {!canEdit && <p className="field-hint">Only owners and admins can change the brand.</p>}
      <ErrorMessage error={loaded.error} />
      {loaded.data && (
        <div className="brand-editor">
          <div className="brand-controls">
            <form className="form" onSubmit={onSave} noValidate>
              <fieldset className="plain" disabled={!canEdit}>
                <TextField
                  label="Brand name"
                  hint="Up to 100 characters. Empty: Signet."
                  value={name}
                  maxLength={100}
                  onChange={(e) => setName(e.target.value)}
                  error={fieldError(save.errors, 'brandName', 'Brand name')}
                />
                <Field
                  id={`${id}-color`}
                  label="Brand colour"
                  hint={COLOR.test(color) ? buttonTextNote(color) : 'Empty: Signet blue.'}
                  error={colorError}
                >
                  {(control) => (
                    <div className="brand-color-row">
                      <input
                        type="color"
                        className="brand-color-swatch"
                        aria-label="Colour picker"
                        value={COLOR.test(color) ? color.toLowerCase() : SIGNET_ACCENT}
                        onChange={(e) => setColor(e.target.value)}
                      />
                      <input
                        {...control}
                        className={`${control.className} mono brand-color-code`}
                        placeholder="#rrggbb"
                        value={color}
                        onChange={(e) => setColor(e.target.value)}
                      />
                      <button
                        type="button"
                        className="button secondary small"
                        onClick={() => setColor('')}
                        disabled={color === ''}
                      >
                        Use Signet blue
                      </button>
                    </div>
                  )}
                </Field>
                {canEdit && (
                  <button type="submit" className="button primary" disabled={save.busy}>
                    Save brand
                  </button>
                )}
              </fieldset>
              <ErrorMessage error={save.message} />
              {otherErrors(save.errors, ['brandName', 'brandColor']).map((e) => (
                <ErrorMessage key={e.path} error={e.message} />
              ))}
              {saved && <StatusMessage>Brand saved.</StatusMessage>}
            </form>
            <div className="field brand-logo-field">
              <label className="field-label" htmlFor={`${id}-logo`}>
                Logo
              </label>
              <span className="field-hint" id={`${id}-logo-hint`}>
                PNG or JPEG, up to 512 KiB. Signet stores a copy at most 400 × 120 pixels, without
                metadata.
              </span>
              {logo && (
                <img
                  className="brand-logo-current"
                  src={logo.url}
                  alt="Current logo"
                  width={logo.width / 2}
                  height={logo.height / 2}
                />
              )}
              {canEdit && (
                <div className="button-row">
                  <input
                    id={`${id}-logo`}
                    type="file"
                    accept="image/png,image/jpeg"
                    aria-describedby={`${id}-logo-hint`}
                    disabled={logoBusy}
                    onChange={onLogoChosen}
                  />
                  {logo && (
                    <ConfirmButton
                      label="Remove logo"
                      question="Remove the logo? Sent e-mails lose it too."
                      confirmLabel="Remove"
                      disabled={logoBusy}
                      onConfirm={() =>
                        runLogo(async () => {
                          await call('DELETE /api/tenants/{tenantId}/logo', { params });
                          setLogo(null);
                        }, 'Logo removed.')
                      }
                    />
                  )}
                </div>
              )}
              {!canEdit && !logo && <p className="field-hint">No logo.</p>}
              <ErrorMessage error={logoError} />
              {logoStatus && <StatusMessage>{logoStatus}</StatusMessage>}
            </div>
          </div>
          <BrandPreview brand={brand} />
        </div>
      )}
    </section>
  );
}
