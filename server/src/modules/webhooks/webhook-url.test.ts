import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCallbackUrl, isPublicAddress, type ResolveHost } from './webhook-url.js';

const strict = (addresses: string[] | Error) => ({
  allowPrivate: false,
  resolve: (async () => {
    if (addresses instanceof Error) throw addresses;
    return addresses.map((address) => ({ address }));
  }) satisfies ResolveHost,
});
const noDns = strict(new Error('the test resolves no names here'));
const messagesOf = async (url: string, policy = noDns) =>
  (await checkCallbackUrl(url, policy)).map((e) => {
    expect(e.path).toBe('body.url');
    return e.message;
  });

// Every refusal the development setting would lift names it.
const SETTING = 'WEBHOOK_ALLOW_PRIVATE_URLS=true allows it for development';
const HTTPS_ONLY =
  'must be an https: URL (http: only to this machine in the sandbox, or with WEBHOOK_ALLOW_PRIVATE_URLS=true for development)';

describe('isPublicAddress', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2001:4860:4860::8888'])(
    'lets %s through',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '::7f00:1',
    '::808:808',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'not an address',
    '',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it('refuses every loopback and private IPv4 address', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, (b, c, d) => {
        expect(isPublicAddress(`127.${b}.${c}.${d}`)).toBe(false);
        expect(isPublicAddress(`10.${b}.${c}.${d}`)).toBe(false);
        expect(isPublicAddress(`192.168.${c}.${d}`)).toBe(false);
        expect(isPublicAddress(`172.${16 + (b % 16)}.${c}.${d}`)).toBe(false);
      }),
    );
  });
});

describe('checkCallbackUrl', () => {
  it('accepts an https URL to a public address', async () => {
    expect(await messagesOf('https://93.184.216.34/hooks')).toEqual([]);
    expect(await messagesOf('https://[2606:4700:4700::1111]:8443/x')).toEqual([]);
    expect(await messagesOf('https://hooks.example/x', strict(['93.184.216.34']))).toEqual([]);
  });

  it('refuses what is not an absolute https URL without credentials', async () => {
    expect(await messagesOf('/relative')).toEqual(['must be an absolute URL']);
    expect(await messagesOf('http://93.184.216.34/')).toEqual([HTTPS_ONLY]);
    expect(await messagesOf('ftp://93.184.216.34/')).toEqual([HTTPS_ONLY]);
    expect(await messagesOf('https://user:pw@93.184.216.34/')).toEqual([
      'must not contain a user name or password',
    ]);
    expect(await messagesOf(`https://93.184.216.34/${'a'.repeat(2048)}`)).toEqual([
      'must be at most 2048 characters',
    ]);
  });

  it('refuses non-public IP literals, however they are spelt', async () => {
    for (const [url, host] of [
      ['https://127.0.0.1/', '127.0.0.1'],
      ['https://0x7f.1/', '127.0.0.1'],
      ['https://2130706433/', '127.0.0.1'],
      ['https://[::1]/', '::1'],
      ['https://[::127.0.0.1]/', '::7f00:1'],
      ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ]) {
      expect(await messagesOf(url)).toEqual([
        `must not point to a loopback, private or otherwise non-public address (${host}); ${SETTING}`,
      ]);
    }
  });

  it('refuses a name that resolves to any non-public address, or to nothing', async () => {
    expect(
      await messagesOf('https://rebind.example/', strict(['93.184.216.34', '10.0.0.5'])),
    ).toEqual([
      `host rebind.example resolves to a loopback, private or otherwise non-public address (10.0.0.5); ${SETTING}`,
    ]);
    expect(await messagesOf('https://empty.example/', strict([]))).toEqual([
      'host empty.example does not resolve',
    ]);
    expect(await messagesOf('https://gone.example/', noDns)).toEqual([
      'host gone.example does not resolve',
    ]);
  });

  it('with private URLs allowed, takes http and private hosts without resolving', async () => {
    const policy = { allowPrivate: true, resolve: noDns.resolve };
    expect(await checkCallbackUrl('http://127.0.0.1:8080/hook', policy)).toEqual([]);
    expect(await checkCallbackUrl('http://receiver.internal/hook', policy)).toEqual([]);
    // Still a URL without credentials in a known scheme.
    expect(await checkCallbackUrl('ftp://127.0.0.1/', policy)).toHaveLength(1);
    expect(await checkCallbackUrl('http://u:p@127.0.0.1/', policy)).toHaveLength(1);
  });
});
