import { createRequire } from 'node:module';

/**
 * Node's http and https modules, through require(): an ES module import of a built-in module
 * reads every one of its exports, and node:http's WebSocket, CloseEvent and MessageEvent are
 * getters that load undici, about 50 ms of CPU at every start for nothing the server uses.
 */
const require = createRequire(import.meta.url);
export const http: typeof import('node:http') = require('node:http');
export const https: typeof import('node:https') = require('node:https');
