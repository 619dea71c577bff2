import { sql, type SQL } from 'drizzle-orm';
import { RpcError } from '@lws/messaging';
import type { Db } from './database';

/**
 * Reconciliation of a copy with the service that owns the data (escalation's with shifts and
 * identity). Both sides describe each record as a line, `lines(user_id, line)` (the owner's contract
 * defines the line), hash it with PostgreSQL's hashtextextended(line, 0) and digest a bucket
 * (user_id modulo the bucket count) as the sum of its hashes; only differing buckets are looked at
 * further, first line hash by line hash, then record by record.
 */

/** The most buckets, and ids, one request may name: a reply stays well under NATS's 1 MB. */
export const RECONCILE_MAX_BUCKETS = 1024;
export const RECONCILE_MAX_IDS = 1000;

export interface LinesDigest {
  bucket: number;
  digest: string;
  count: number;
}

/** Each non-empty bucket's digest; `lines` is a WITH list defining `lines(user_id, line)`. */
export async function digestLines(db: Db, lines: SQL, buckets: number): Promise<LinesDigest[]> {
  const { rows } = (await db.execute(sql`
    with ${lines}
    select user_id % ${buckets} as bucket, sum(hashtextextended(line, 0))::text as digest, count(*)::int as n
    from lines group by 1`)) as unknown as { rows: { bucket: number; digest: string; n: number }[] };
  return rows.map((r) => ({ bucket: Number(r.bucket), digest: r.digest, count: r.n }));
}

/** Each line's hash in the buckets given (a PostgreSQL array literal, from reconcileBuckets), by user id. */
export async function lineHashes(db: Db, lines: SQL, buckets: number, bucketIds: string): Promise<Map<number, string>> {
  const { rows } = (await db.execute(sql`
    with ${lines}
    select user_id, hashtextextended(line, 0)::text as hash from lines where user_id % ${buckets} = any(${bucketIds}::int[])`)) as unknown as {
    rows: { user_id: number; hash: string }[];
  };
  return new Map(rows.map((r) => [r.user_id, r.hash]));
}

/** The same as one string of "user_id:hash" pairs, comma-separated: what an owner answers. */
export async function lineHashesText(db: Db, lines: SQL, buckets: number, bucketIds: string): Promise<string> {
  const { rows } = (await db.execute(sql`
    with ${lines}
    select coalesce(string_agg(user_id::text || ':' || hashtextextended(line, 0)::text, ','), '') as hashes
    from lines where user_id % ${buckets} = any(${bucketIds}::int[])`)) as unknown as { rows: { hashes: string }[] };
  return rows[0]?.hashes ?? '';
}

/** A request's bucket ids as a PostgreSQL array literal; a 400 naming the field when there are too many or one is out of range. */
export function reconcileBuckets(req: { buckets: number; bucketIds: readonly number[] }): string {
  if (req.bucketIds.length > RECONCILE_MAX_BUCKETS)
    throw new RpcError(400, `At most ${RECONCILE_MAX_BUCKETS} buckets per request`, { field: 'bucketIds' });
  if (req.bucketIds.some((b) => b >= req.buckets)) throw new RpcError(400, 'A bucket id must be below buckets', { field: 'bucketIds' });
  return pgArray([...new Set(req.bucketIds)]);
}

/** Ids (numbers or validated uuids) as a PostgreSQL array literal; a 400 naming `field` when there are too many. */
export function reconcileIds(ids: readonly (number | string)[], field: string): string {
  if (ids.length > RECONCILE_MAX_IDS) throw new RpcError(400, `At most ${RECONCILE_MAX_IDS} per request`, { field });
  return pgArray([...new Set(ids)]);
}

/** A PostgreSQL array literal of numbers or uuids (values already validated). */
export const pgArray = (values: readonly (number | string)[]) => `{${values.join(',')}}`;
