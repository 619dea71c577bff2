/**
 * A push to several monitors, on notifications' real schema (its migrations on a fresh PostgreSQL
 * database): one request fans out to a row per browser, and a request carrying its texts to
 * translate is written in each subscriber's own language, found for the whole batch in the one
 * read of the subscriptions. A request without them is stored as it came.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Pool } from 'pg';
import pino from 'pino';
import type { EventMap } from '@lws/contracts';
import { openDatabase, type Clock, type Database, type Emit, type UnitOfWork } from '@lws/platform';
import { createTestDatabase, watchStatements, type Statement, type TestDatabase } from '@lws/testing';
import { DeliveriesRepository } from '../../services/notifications/src/deliveries/deliveries.repository';
import { DeliveriesService } from '../../services/notifications/src/deliveries/deliveries.service';
import type { HandOffs } from '../../services/notifications/src/outbound-webhooks/hand-offs';
import type { TwilioProvider } from '../../services/notifications/src/provider/twilio-provider';
import { SubscriptionsRepository } from '../../services/notifications/src/push/subscriptions.repository';
import { UsersProjection } from '../../services/notifications/src/users/users.projection';

type Request = EventMap['escalation.notification.requested.v1'];

const NOW = new Date('2026-07-01T13:05:00Z');
const [WELSH, ENGLISH] = [501, 502];

/** What escalation asks for a missed check-in, as its monitorsPush writes it. */
const missedCheckIn = (to: Pick<Request, 'toUsers' | 'toRole'>, texts = true): Request => ({
  requestId: randomUUID(),
  channel: 'push',
  purpose: 'missed_check_in',
  ...to,
  title: 'Missed check-in: Sam Jones',
  body: 'Sam Jones did not check in by 14:00 at Depot. Acknowledge the alarm in LWS.',
  userId: 7,
  alarmId: randomUUID(),
  ...(texts
    ? {
        titleText: { text: 'Missed check-in: {{name}}', values: { name: 'Sam Jones' } },
        bodyText: {
          text: '{{name}} did not check in by {{time}} at {{location}}. Acknowledge the alarm in LWS.',
          values: { name: 'Sam Jones', time: '14:00', location: 'Depot' },
        },
      }
    : {}),
});

const inWelsh = {
  title: "Cofrestriad wedi'i golli: Sam Jones",
  body: 'Ni wnaeth Sam Jones gofrestru erbyn 14:00 yn Depot. Cydnabyddwch y larwm yn LWS.',
  language: 'cy',
};
const asSent = {
  title: 'Missed check-in: Sam Jones',
  body: 'Sam Jones did not check in by 14:00 at Depot. Acknowledge the alarm in LWS.',
  language: null,
};

describe("a push to monitors in each monitor's language", () => {
  let database: TestDatabase;
  let opened: Database;
  let service: DeliveriesService;
  const subscriptionOf = new Map<number, string>();

  beforeAll(async () => {
    database = await createTestDatabase('lws_push_languages_');
    opened = await openDatabase({
      service: 'notifications',
      databaseUrl: database.url,
      dataDir: '',
      migrationsFolder: join(__dirname, '../../services/notifications/drizzle'),
      logger: pino({ level: 'silent' }),
    });
    const subscriptions = new SubscriptionsRepository(opened.db);
    const users = new UsersProjection(subscriptions);
    service = new DeliveriesService(
      new DeliveriesRepository(opened.db),
      subscriptions,
      {} as TwilioProvider,
      {} as UnitOfWork,
      // No hand-off here: these requests are pushes.
      {} as HandOffs,
      (() => NOW) as Clock,
    );
    // Two monitors as identity announces them: one who chose Welsh, one who never chose (English).
    await opened.db.transaction(async (tx) => {
      await users.created(tx, { userId: WELSH, username: 'gwen', name: 'Gwen', role: 'admin', version: 1, language: 'cy' });
      await users.created(tx, { userId: ENGLISH, username: 'ann', name: 'Ann', role: 'admin', version: 1 });
    });
    for (const userId of [WELSH, ENGLISH]) {
      const id = await subscriptions.upsert({
        id: randomUUID(),
        userId,
        endpoint: `https://push.example.org/${userId}`,
        p256dh: 'p',
        auth: 'a',
        createdAt: NOW,
      });
      subscriptionOf.set(userId, id);
    }
  });

  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  async function take(requests: Request[]): Promise<Statement[]> {
    const seen: Statement[] = [];
    const unwatch = watchStatements((opened.db as unknown as { $client: Pool }).$client, (s) => seen.push(s));
    try {
      const emit = Object.assign(async () => undefined, { many: async () => [] }) as unknown as Emit;
      await opened.db.transaction((tx) => service.requestedMany(tx, emit, requests));
    } finally {
      unwatch();
    }
    return seen;
  }

  /** The rows a request became, by the monitor whose browser each goes to. */
  async function rowsOf(requestId: string) {
    const { rows } = await (opened.db as unknown as { $client: Pool }).$client.query(
      'select to_address, title, body, language, status from notifications.deliveries where request_id = $1',
      [requestId],
    );
    const whose = new Map([...subscriptionOf].map(([user, sub]) => [sub, user]));
    return Object.fromEntries(
      rows.map((r) => [whose.get(r.to_address), { title: r.title, body: r.body, language: r.language, status: r.status }]),
    );
  }

  it('one request to two monitors becomes two rows: the Welsh-speaking one in Welsh, the other as sent; one without texts to translate, as sent to both', async () => {
    const request = missedCheckIn({ toUsers: { userIds: [WELSH, ENGLISH] } });
    const untranslated = missedCheckIn({ toUsers: { userIds: [WELSH, ENGLISH] } }, false);
    await take([request]);
    await take([untranslated]);
    expect(await rowsOf(request.requestId)).toEqual({
      [WELSH]: { ...inWelsh, status: 'pending' },
      [ENGLISH]: { ...asSent, status: 'pending' },
    });
    expect(await rowsOf(untranslated.requestId)).toEqual({
      [WELSH]: { ...asSent, status: 'pending' },
      [ENGLISH]: { ...asSent, status: 'pending' },
    });
  });

  it('a push to every monitor is written the same way', async () => {
    const request = missedCheckIn({ toRole: 'monitors' });
    await take([request]);
    expect(await rowsOf(request.requestId)).toEqual({
      [WELSH]: { ...inWelsh, status: 'pending' },
      [ENGLISH]: { ...asSent, status: 'pending' },
    });
  });

  it("finds every subscriber's language for a batch in the one read of the subscriptions", async () => {
    const batch = [
      missedCheckIn({ toUsers: { userIds: [WELSH] } }),
      missedCheckIn({ toUsers: { userIds: [ENGLISH] } }),
      missedCheckIn({ toRole: 'monitors' }),
    ];
    const statements = await take(batch);
    expect(statements.filter((s) => /\b(push_subscriptions|users)\b/.test(s.text))).toHaveLength(1);
    expect((await rowsOf(batch[0].requestId))[WELSH]).toMatchObject(inWelsh);
    expect((await rowsOf(batch[1].requestId))[ENGLISH]).toMatchObject(asSent);
    expect(await rowsOf(batch[2].requestId)).toMatchObject({ [WELSH]: inWelsh, [ENGLISH]: asSent });
  });
});
