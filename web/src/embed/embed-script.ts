// The entry of `/embed.js` (built to web/dist/embed.js by web/build-embed-script.ts): the SDK's
// `mount` as `window.Signet.mount`, for pages that load a script rather than a package.
import { mount } from '../../../sdk/src/embed.js';

const host = window as unknown as { Signet?: Record<string, unknown> };
host.Signet = Object.assign(host.Signet ?? {}, { mount });
