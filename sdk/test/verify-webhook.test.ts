import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhook, type VerifyWebhookOptions } from '../src/index.js';
import { SECRET, buildEvent } from './helpers.js';

const T = 1_700_000_000;
const NOW_MS = T * 1000;
const event = buildEvent();
const body = JSON.stringify(event);
const validHeader = signWebhookPayload(SECRET, body, T);
const v1 = validHeader.split('v1=')[1];

function verify(overrides: Partial<VerifyWebhookOptions> = {}) {
  return verifyWebhook({
    rawBody: body,
    signatureHeader: validHeader,
    secret: SECRET,
    now: () => NOW_MS,
    ...overrides,
  });
}

describe('signWebhookPayload', () => {
  it('produces t=<seconds>,v1=HMAC-SHA256(secret, `${t}.` + body) in lowercase hex', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${body}`).digest('hex');
    expect(validHeader).toBe(`t=${T},v1=${expected}`);
  });

  it('signs bytes, so Buffer, Uint8Array and string of the same bytes agree', () => {
    const bytes = Buffer.from(body);
    expect(signWebhookPayload(SECRET, bytes, T)).toBe(validHeader);
    expect(signWebhookPayload(SECRET, new Uint8Array(bytes), T)).toBe(validHeader);
  });

  it('refuses an empty secret and a non-integer timestamp', () => {
    expect(() => signWebhookPayload('', body, T)).toThrow(TypeError);
    expect(() => signWebhookPayload(SECRET, body, 1.5)).toThrow(TypeError);
    expect(() => signWebhookPayload(SECRET, body, -1)).toThrow(TypeError);
  });
});

describe('verifyWebhook', () => {
  it('accepts a valid delivery and returns the parsed event', () => {
    expect(verify()).toEqual({ ok: true, event });
    expect(verify({ rawBody: Buffer.from(body) }).ok).toBe(true);
    expect(verify({ rawBody: new Uint8Array(Buffer.from(body)) }).ok).toBe(true);
  });

  it.each([undefined, null, '', '   '])('rejects a missing header (%j)', (signatureHeader) => {
    expect(verify({ signatureHeader })).toEqual({ ok: false, reason: 'missing_header' });
  });

  it.each([
    'garbage',
    `t=${T}`,
    `v1=${v1}`,
    `t=${T},v1=${v1},t=${T}`,
    `t=${T},v1=${v1},v1=${v1}`,
    `t=${T},v1=${v1},oops`,
    `t=${T};v1=${v1}`,
    `=${T},v1=${v1}`,
  ])('rejects a malformed header: %s', (signatureHeader) => {
    expect(verify({ signatureHeader })).toEqual({ ok: false, reason: 'malformed_header' });
  });

  it.each(['17000000a0', '-1700000000', '1700000000.5', '', ' 1700000000x', '+1700000000'])(
    'rejects a timestamp that is not digits only: t=%s',
    (t) => {
      const signatureHeader = `t=${t},v1=${v1}`;
      expect(verify({ signatureHeader })).toEqual({ ok: false, reason: 'invalid_timestamp' });
    },
  );

  it.each([
    ['uppercase', v1.toUpperCase()],
    ['63 characters', v1.slice(0, 63)],
    ['65 characters', `${v1}0`],
    ['non-hex', `${v1.slice(0, 63)}g`],
    ['empty', ''],
  ])('rejects a v1 that is not 64 lowercase hex characters (%s)', (_name, value) => {
    expect(verify({ signatureHeader: `t=${T},v1=${value}` })).toEqual({
      ok: false,
      reason: 'invalid_signature_format',
    });
  });

  it.each([
    ['301 s in the past', T - 301],
    ['301 s in the future', T + 301],
  ])('rejects a correctly signed timestamp %s', (_name, t) => {
    const signatureHeader = signWebhookPayload(SECRET, body, t);
    expect(verify({ signatureHeader })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it.each([
    ['300 s in the past', T - 300],
    ['300 s in the future', T + 300],
  ])('accepts a timestamp exactly %s', (_name, t) => {
    expect(verify({ signatureHeader: signWebhookPayload(SECRET, body, t) }).ok).toBe(true);
  });

  it('honours a custom tolerance', () => {
    const signatureHeader = signWebhookPayload(SECRET, body, T - 10);
    expect(verify({ signatureHeader, toleranceSeconds: 5 })).toEqual({
      ok: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(() => verify({ toleranceSeconds: -1 })).toThrow(TypeError);
  });

  it('rejects a body altered by one byte', () => {
    const bytes = Buffer.from(body);
    bytes[bytes.length - 2] ^= 0x01;
    expect(verify({ rawBody: bytes })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects a signature made with another secret', () => {
    const signatureHeader = signWebhookPayload('whsec_other', body, T);
    expect(verify({ signatureHeader })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('rejects the same JSON re-serialized with different whitespace', () => {
    const reserialized = JSON.stringify(JSON.parse(body), null, 2);
    expect(JSON.parse(reserialized)).toEqual(JSON.parse(body));
    expect(verify({ rawBody: reserialized })).toEqual({ ok: false, reason: 'signature_mismatch' });
  });

  it('checks the signature before parsing: bad JSON with a bad signature is a mismatch', () => {
    const rawBody = '{not json';
    expect(verify({ rawBody })).toEqual({ ok: false, reason: 'signature_mismatch' });
    const signatureHeader = signWebhookPayload(SECRET, rawBody, T);
    expect(verify({ rawBody, signatureHeader })).toEqual({ ok: false, reason: 'invalid_json' });
  });

  it('reports invalid UTF-8 in a signed body as invalid_json', () => {
    const rawBody = Buffer.from([0x7b, 0xff, 0x7d]);
    const signatureHeader = signWebhookPayload(SECRET, rawBody, T);
    expect(verify({ rawBody, signatureHeader })).toEqual({ ok: false, reason: 'invalid_json' });
  });

  it.each([
    ['an array', []],
    ['no data', { ...event, data: undefined }],
    ['an empty id', { ...event, id: '' }],
    ['a numeric newStatus', { ...event, data: { ...event.data, newStatus: 3 } }],
    ['a signee event without signeeId', { ...event, type: 'signee.status_changed' }],
  ])('reports a signed payload with %s as invalid_payload', (_name, payload) => {
    const rawBody = JSON.stringify(payload);
    const signatureHeader = signWebhookPayload(SECRET, rawBody, T);
    expect(verify({ rawBody, signatureHeader })).toEqual({ ok: false, reason: 'invalid_payload' });
  });

  it('reports a signed event of an unknown type as unsupported_event_type', () => {
    const rawBody = JSON.stringify({ ...event, type: 'document.archived' });
    const signatureHeader = signWebhookPayload(SECRET, rawBody, T);
    expect(verify({ rawBody, signatureHeader })).toEqual({
      ok: false,
      reason: 'unsupported_event_type',
    });
  });

  it('reads an event recorded before externalId and metadata existed as having neither', () => {
    const { externalId: _e, metadata: _m, ...older } = event.data as Record<string, unknown>;
    const rawBody = JSON.stringify({ ...event, data: older });
    const result = verify({ rawBody, signatureHeader: signWebhookPayload(SECRET, rawBody, T) });
    expect(result).toEqual({ ok: true, event });
  });

  it('returns a signee event with its signeeId', () => {
    const signee = {
      ...event,
      type: 'signee.status_changed',
      data: { ...event.data, signeeId: 's1' },
    };
    const rawBody = JSON.stringify(signee);
    const result = verify({ rawBody, signatureHeader: signWebhookPayload(SECRET, rawBody, T) });
    expect(result).toEqual({ ok: true, event: signee });
  });

  it('ignores unknown header keys so that a future scheme can be added', () => {
    expect(verify({ signatureHeader: `${validHeader},v2=abc` }).ok).toBe(true);
  });

  it('refuses an empty secret', () => {
    expect(() => verify({ secret: '' })).toThrow(TypeError);
  });
});
