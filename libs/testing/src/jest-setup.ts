import { TextDecoder, TextEncoder } from 'node:util';

// Tests never export traces, and keep logs quiet unless asked.
process.env.OTEL_SDK_DISABLED = 'true';
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';

// jsdom (the frontends' component tests) lacks the encoders Node has, which react-router needs.
if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });
