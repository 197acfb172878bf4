/**
 * The network code: the only module of Den that loads `undici` and `ws`. It is built as its own
 * bundle, dist/net.js, and reached only through `./lazy-net` on the first request or socket, so
 * activating Den loads neither (docs/decisions/2026-11-27-activation-not-bytes.md). Everything else
 * imports these packages' types only.
 */
import { Agent } from 'undici';
import WebSocket from 'ws';

export { Agent, WebSocket };
