import { RECONCILE_MAX_BUCKETS, type Emit, type LinesDigest, type Tx } from '@lws/platform';

export type Owner = 'shifts' | 'identity';

export const REPAIR_KINDS = [
  'shift_missing',
  'deadline_stale',
  'shift_ended',
  'emergency_missing',
  'profile_stale',
  'settings_stale',
  'contacts_stale',
  'team_stale',
] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

export type { LinesDigest as BucketDigest } from '@lws/platform';

/** What a repair did: whether it changed anything, whether a step is due now, and what to tell an operator. */
export interface RepairOutcome {
  changed: boolean;
  dueNow: boolean;
  details: string;
}

/**
 * How the repairs of a kind that can be numerous (a lost change to thousands of workers) are
 * applied together: a few statements built from arrays for all of them, with the effect and the
 * outcome each one's `apply` would have had.
 */
export interface RepairSet<T> {
  /** Applies the items (each of a different worker) in the caller's transaction; answers each one's outcome, in order. */
  applyMany(tx: Tx, emit: Emit, items: T[]): Promise<RepairOutcome[]>;
}

export interface Repair {
  kind: RepairKind;
  /** The worker repaired; 0 for a repair of no one user's data (a team). */
  userId: number;
  /** Applies the repair on its own in the caller's transaction. */
  apply(tx: Tx, emit: Emit): Promise<RepairOutcome>;
  /** A numerous kind's repair: its part of the set its kind is applied by (`apply` stays the path of a set that fails). */
  together?: { set: RepairSet<unknown>; item: unknown };
}

/** A repair's part in `set`. */
export const inSet = <T>(set: RepairSet<T>, item: T): Repair['together'] => ({ set, item });

/** Escalation's copy of one owner's data, as reconciliation sees it. */
export interface ReconcileSide {
  readonly owner: Owner;
  /** Both sides' digests of the same lines, by bucket (non-empty buckets only). */
  digests(buckets: number, startedAt: Date): Promise<{ theirs: LinesDigest[]; ours: LinesDigest[] }>;
  /**
   * Each worker's line hash in the buckets asked for: the owner's as its "user_id:hash,..." string,
   * escalation's by user id.
   */
  hashes(buckets: number, bucketIds: number[], startedAt: Date): Promise<{ theirs: string; ours: Map<number, string> }>;
  /** Fetches both sides of the workers whose lines differ and plans a repair for each difference that has settled. */
  compare(buckets: number, userIds: number[], startedAt: Date): Promise<{ compared: number; repairs: Repair[] }>;
  /** Repairs of data not kept per user (identity's teams), compared whole every round. */
  wholeRepairs?(startedAt: Date): Promise<Repair[]>;
}

/** Fetches in flight at once. */
export const FETCH_CONCURRENCY = 4;
/** How long an owner has to answer one request of a round. */
export const RPC_TIMEOUT_MS = 10_000;

/** Groups buckets so that one fetch carries at most `maxItems` rows (a reply well under NATS's 1 MB) and the owner's most buckets. */
export function bucketChunks(differing: number[], size: Map<number, number>, maxItems: number): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let inChunk = 0;
  for (const b of differing) {
    const n = size.get(b) ?? 0;
    if (current.length > 0 && (inChunk + n > maxItems || current.length >= RECONCILE_MAX_BUCKETS)) {
      chunks.push(current);
      current = [];
      inChunk = 0;
    }
    current.push(b);
    inChunk += n;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function inParallel<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}
