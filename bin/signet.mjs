#!/usr/bin/env node
// The `signet` command: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../server/src/cli.ts');
