import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Settings of GET /api/events (docs/api-live.md), part of the gateway's configuration. */
export const liveConfigShape = {
  /** Pause between `: ping` comments, which keep proxies from closing a quiet stream. */
  LIVE_HEARTBEAT_MS: int(100, 300_000).default(15_000),
  /** How often an open stream checks its session still exists (logout, expiry, revocation). */
  LIVE_SESSION_CHECK_MS: int(100, 600_000).default(30_000),
  /** Streams one account may hold open on one gateway process; 0 turns the stream off (429). */
  LIVE_MAX_STREAMS_PER_USER: int(0, 100).default(5),
  /** Events kept for resuming with Last-Event-ID: at most this many, none older than LIVE_BUFFER_SECONDS. */
  LIVE_BUFFER_EVENTS: int(1, 1_000_000).default(10_000),
  LIVE_BUFFER_SECONDS: int(1, 86_400).default(900),
};
