#!/usr/bin/env -S node --max-semi-space-size=64
// The `signet` command: runs the TypeScript CLI through tsx's loader. The V8 flag on the line
// above gives the young generation room for a busy server's short-lived request objects
// (docs/operations.md, "Node flags"); a process started as `node bin/signet.mjs` runs without it.
import { register } from 'tsx/esm/api';

register();
await import('../server/src/cli.ts');
