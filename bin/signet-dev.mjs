#!/usr/bin/env -S node --max-semi-space-size=64
// `npm run dev`: the `signet` command on the TypeScript sources, through tsx (a dev dependency),
// whatever dist/ holds. The tests start the service this way (test/webhooks/service-process.ts),
// so they run the code as it is now; bin/signet.mjs falls back to it when dist/ is not current.
import { register } from 'tsx/esm/api';

register();
await import('../server/src/cli.ts');
