import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@lws/testing';
import { asc, sql } from 'drizzle-orm';
import { bigint, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import { insertRows } from './rows';

const schema = pgSchema('rows_test');
const notes = schema.table('notes', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  id: uuid('id')
    .notNull()
    .unique()
    .$defaultFn(() => randomUUID()),
  userId: integer('user_id').notNull(),
  kind: text('kind').notNull().default('plain'),
  details: jsonb('details').$type<{ step: number; to?: string[] }>(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  remark: text('remark'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

const DDL = `
  create schema rows_test;
  create table rows_test.notes (
    seq bigint generated always as identity primary key,
    id uuid not null unique,
    user_id integer not null,
    kind text not null default 'plain',
    details jsonb,
    at timestamptz not null,
    remark text,
    created_at timestamptz not null default now()
  )`;

describe('insertRows', () => {
  let database: TestDatabase;
  let pool: Pool;
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    database = await createTestDatabase('lws_rows_');
    pool = new Pool({ connectionString: database.url, max: 2 });
    db = drizzle(pool);
    await pool.query(DDL);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });
  beforeEach(() => pool.query('truncate rows_test.notes'));

  const at = new Date('2026-11-28T10:00:00.123Z');

  it('writes every row in the order given and answers them as the query builder reads them', async () => {
    const rows = [
      { userId: 7, details: { step: 0, to: ['+447700900001', "O'Brien"] }, at, remark: 'first "quoted" \\ line' },
      { userId: 8, details: null, at: new Date(at.getTime() + 1), remark: null },
      { userId: 9, details: { step: 2 }, at, remark: 'é ✓' },
    ];

    const inserted = await insertRows(db, notes, rows, { returning: true });

    const stored = await db.select().from(notes).orderBy(asc(notes.seq));
    expect(inserted).toEqual(stored);
    expect(stored.map((r) => r.userId)).toEqual([7, 8, 9]);
    expect(stored[0]).toMatchObject({
      kind: 'plain',
      details: { step: 0, to: ['+447700900001', "O'Brien"] },
      remark: 'first "quoted" \\ line',
    });
    expect(stored[1]).toMatchObject({ details: null, remark: null, at: new Date(at.getTime() + 1) });
    expect(stored[2].remark).toBe('é ✓');
    expect(stored[0].at).toEqual(at);
    expect(new Set(stored.map((r) => r.id)).size).toBe(3);
  });

  it('skips the rows a conflict clause skips and answers only those written', async () => {
    const id = randomUUID();
    await insertRows(db, notes, [{ id, userId: 1, at }]);

    const inserted = await insertRows(
      db,
      notes,
      [
        { id, userId: 2, at },
        { userId: 3, at },
      ],
      { onConflict: sql`(id) do nothing`, returning: true },
    );

    expect(inserted.map((r) => r.userId)).toEqual([3]);
    expect((await db.select().from(notes).orderBy(asc(notes.seq))).map((r) => r.userId)).toEqual([1, 3]);
  });

  it('gives a row that leaves a column out what the query builder would: its default, else null', async () => {
    const inserted = await insertRows(
      db,
      notes,
      [
        { userId: 1, at, kind: 'loud', remark: 'said' },
        { userId: 2, at },
      ],
      { returning: true },
    );

    expect(inserted.map((r) => [r.kind, r.remark])).toEqual([
      ['loud', 'said'],
      ['plain', null],
    ]);
  });

  it('refuses, writing nothing, a column some rows give and others leave to a default only the database knows', async () => {
    await expect(
      insertRows(db, notes, [
        { userId: 1, at, createdAt: at },
        { userId: 2, at },
      ]),
    ).rejects.toThrow(/createdAt is given for some rows/);
    expect(await db.select().from(notes)).toEqual([]);
  });

  it('writes a thousand rows with one parameter', async () => {
    const statements: unknown[][] = [];
    const query = pool.query.bind(pool);
    const watched = drizzle({
      client: Object.assign(Object.create(pool), {
        query: (config: { values?: unknown[] }, values?: unknown[]) => {
          statements.push(values ?? config.values ?? []);
          return query(config as never, values as never);
        },
      }),
    });

    await insertRows(
      watched,
      notes,
      Array.from({ length: 1000 }, (_, i) => ({ userId: i, at })),
    );

    expect(statements.map((s) => s.length)).toEqual([1]);
    expect((await pool.query('select count(*)::int as n, min(user_id) as lo, max(user_id) as hi from rows_test.notes')).rows[0]).toEqual({
      n: 1000,
      lo: 0,
      hi: 999,
    });
  });
});
