import { randomUUID } from 'node:crypto';
import { InProcessBus, type AnyEventEnvelope } from '@lws/messaging';
import { createLogger } from '@lws/platform';
import type { Role } from '../common/session.guard';
import { LiveFeed, LiveScope, type LiveSubscriber, type TeamScope } from './live-feed';

const logger = createLogger('live-feed-spec', 'silent');
const NOW = new Date('2025-06-01T10:00:00.000Z');

function event(subject: string, data: unknown): AnyEventEnvelope {
  return { id: randomUUID(), subject, occurredAt: NOW.toISOString(), producer: 'spec', data } as AnyEventEnvelope;
}
const checkIn = (userId: number) =>
  event('shifts.checkin.recorded.v1', {
    checkInId: randomUUID(),
    shiftId: randomUUID(),
    userId,
    location: 'Depot',
    checkedInAt: NOW.toISOString(),
    nextCheckInAt: '2025-06-01T11:00:00.000Z',
  });
const escalated = (userId: number) =>
  event('escalation.alarm.escalated.v1', {
    alarmId: randomUUID(),
    userId,
    step: 2,
    action: 'notify_monitors',
    at: NOW.toISOString(),
    details: 'Called Sam',
  });

interface Client extends LiveSubscriber {
  frames: string[];
  closed: boolean;
}
function client(userId: number, role: Role): Client {
  const c: Client = {
    userId,
    role,
    frames: [],
    closed: false,
    send: (f) => c.frames.push(f),
    close: () => (c.closed = true),
  };
  return c;
}
const types = (c: Client) => c.frames.map((f) => /event: (\w+)/.exec(f)![1]);
const ids = (c: Client) => c.frames.map((f) => /^id: (\S+)/.exec(f)?.[1]);

describe('LiveFeed', () => {
  let bus: InProcessBus;
  let feed: LiveFeed;

  async function start(maxEvents = 100) {
    bus = new InProcessBus({ logger });
    feed = new LiveFeed({ source: bus, logger, clock: () => NOW, maxEvents, maxAgeMs: 60_000 });
    await feed.start();
  }
  afterEach(async () => {
    await feed.stop();
    await bus.close();
  });

  it('sends a fresh stream ready with the server clock and the head cursor', async () => {
    await start();
    await bus.publish(checkIn(7));
    const { initial } = feed.attach(client(1, 'admin'));
    expect(initial).toBe(`id: ${feed.headCursor()}\nevent: ready\ndata: {"now":"2025-06-01T10:00:00.000Z"}\n\n`);
  });

  it('gives monitors everything, a worker only its own, and never escalation details to a worker', async () => {
    await start();
    const admin = client(1, 'admin');
    const superadmin = client(2, 'superadmin');
    const seven = client(7, 'worker');
    const eight = client(8, 'worker');
    for (const c of [admin, superadmin, seven, eight]) feed.attach(c);
    await bus.publish(checkIn(7));
    await bus.publish(escalated(7));
    await bus.publish(checkIn(8));
    expect(types(admin)).toEqual(['worker', 'alarm', 'worker']);
    expect(superadmin.frames).toEqual(admin.frames);
    // The worker hears that its alarm moved on (its emergency screen refetches), never the step's details.
    expect(types(seven)).toEqual(['worker', 'alarm']);
    expect(seven.frames[0]).toContain('"userId":7');
    expect(seven.frames[1]).toContain('"change":"escalated"');
    expect(seven.frames[1]).not.toContain('Called Sam');
    expect(types(eight)).toEqual(['worker']);
    expect(eight.frames[0]).toContain('"userId":8');
  });

  it("keeps a duress alarm from the worker's stream, while monitors see it marked", async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    for (const c of [admin, seven]) feed.attach(c);
    const opened = (duress: boolean) =>
      event('escalation.alarm.opened.v1', {
        alarmId: randomUUID(),
        userId: 7,
        kind: 'emergency',
        openedAt: NOW.toISOString(),
        ...(duress ? { duress } : {}),
      });
    await bus.publish(opened(true));
    await bus.publish(opened(false));
    expect(types(admin)).toEqual(['alarm', 'alarm']);
    expect(admin.frames[0]).toContain('"duress":true');
    expect(types(seven)).toEqual(['alarm']);
    expect(seven.frames[0]).not.toContain('duress');
  });

  it("carries nothing of a duress alarm's life to the worker: not the emergency, its steps, who took it, nor how it ended", async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    for (const c of [admin, seven]) feed.attach(c);
    const alarmId = randomUUID();
    const at = NOW.toISOString();
    await bus.publish(
      event('shifts.emergency.raised.v1', {
        emergencyId: randomUUID(),
        userId: 7,
        location: 'Depot',
        raisedAt: at,
        workerVersion: 3,
        duress: true,
      }),
    );
    await bus.publish(event('escalation.alarm.opened.v1', { alarmId, userId: 7, kind: 'emergency', openedAt: at, duress: true }));
    await bus.publish(
      event('escalation.alarm.escalated.v1', {
        alarmId,
        userId: 7,
        step: 0,
        action: 'notify_monitors',
        at,
        details: 'Pushed',
        duress: true,
      }),
    );
    await bus.publish(event('escalation.alarm.acknowledged.v1', { alarmId, userId: 7, byUserId: 1, at, duress: true }));
    await bus.publish(
      event('escalation.alarm.resolved.v1', { alarmId, userId: 7, byUserId: 1, at, verdict: 'genuine', note: 'Police sent', duress: true }),
    );
    expect(types(admin)).toEqual(['worker', 'alarm', 'alarm', 'alarm', 'alarm']);
    expect(seven.frames).toEqual([]);
    // The same life of an ordinary emergency reaches the worker's screen, which refetches it.
    await bus.publish(
      event('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: 7, location: 'Depot', raisedAt: at, workerVersion: 4 }),
    );
    await bus.publish(event('escalation.alarm.acknowledged.v1', { alarmId: randomUUID(), userId: 7, byUserId: 1, at }));
    expect(types(seven)).toEqual(['worker', 'alarm']);
  });

  it('tells the worker "safe" alike whichever PIN cancelled their emergency', async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    for (const c of [admin, seven]) feed.attach(c);
    const alarmId = randomUUID();
    await bus.publish(event('escalation.alarm.worker_safe.v1', { alarmId, userId: 7, at: NOW.toISOString() }));
    await bus.publish(event('escalation.alarm.worker_safe.v1', { alarmId, userId: 7, at: NOW.toISOString(), underDuress: true }));
    const [real, duress] = seven.frames.map((f) => f.replace(/^id: \S+\n/, ''));
    expect(duress).toBe(real);
    expect(types(admin)).toEqual(['alarm', 'alarm']);
  });

  it('tells the worker asked to check in now, and the monitors, when it is asked and how it ended; never another worker', async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    const eight = client(8, 'worker');
    for (const c of [admin, seven, eight]) feed.attach(c);
    const ids = { requestId: randomUUID(), batchId: randomUUID(), userId: 7 };
    const at = NOW.toISOString();
    await bus.publish(event('escalation.checkin_request.created.v1', { ...ids, byUserId: 1, requestedAt: at, dueAt: at }));
    await bus.publish(event('escalation.checkin_request.closed.v1', { ...ids, outcome: 'answered', at }));
    expect(types(admin)).toEqual(['checkin_request', 'checkin_request']);
    expect(seven.frames.map((f) => JSON.parse(/data: (.*)/.exec(f)![1]))).toEqual([
      { ...ids, change: 'requested', at, dueAt: at },
      { ...ids, change: 'closed', outcome: 'answered', at },
    ]);
    expect(eight.frames).toEqual([]);
  });

  it('tells the monitors and the worker when a visit starts and ends, never where it is nor its note, and never another worker', async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    const eight = client(8, 'worker');
    for (const c of [admin, seven, eight]) feed.attach(c);
    const at = NOW.toISOString();
    const visit = { id: randomUUID(), where: 'Flat 3, Mill Lane', startedAt: at, endsAt: '2025-06-01T10:20:00.000Z', hasNote: true };
    const shiftId = randomUUID();
    await bus.publish(event('shifts.visit.started.v1', { shiftId, userId: 7, visit, nextCheckInAt: visit.endsAt, workerVersion: 3 }));
    await bus.publish(
      event('shifts.visit.ended.v1', { visitId: visit.id, shiftId, userId: 7, endedAt: at, reason: 'worker', workerVersion: 4 }),
    );
    const changes = [
      { userId: 7, change: 'visit_started', at, nextCheckInTime: visit.endsAt },
      { userId: 7, change: 'visit_ended', at },
    ];
    for (const c of [admin, seven]) expect(c.frames.map((f) => JSON.parse(/data: (.*)/.exec(f)![1]))).toEqual(changes);
    expect(admin.frames.join()).not.toContain('Mill Lane');
    expect(eight.frames).toEqual([]);
  });

  it("tells a worker about changes to its own account, never another worker's, without names or phones", async () => {
    await start();
    const admin = client(1, 'admin');
    const seven = client(7, 'worker');
    const eight = client(8, 'worker');
    for (const c of [admin, seven, eight]) feed.attach(c);
    await bus.publish(event('identity.user.updated.v1', { userId: 7, name: 'Sam Rivers', phone: '+447700900123' }));
    await bus.publish(
      event('identity.contact.changed.v1', {
        userId: 7,
        contactId: 3,
        change: 'created',
        name: 'Alex',
        phone: '+447700900456',
        relation: 'Partner',
      }),
    );
    await bus.publish(event('identity.credential.changed.v1', { userId: 7, credential: 'pin', changedBy: 7, reset: false }));
    const data = (c: Client) => c.frames.map((f) => JSON.parse(/data: (.*)/.exec(f)![1]));
    expect(types(seven)).toEqual(['account', 'account', 'account']);
    expect(data(seven)).toEqual(Array(3).fill({ userId: 7, change: 'updated' }));
    expect(seven.frames.join('')).not.toMatch(/Sam|Alex|\+44|pin/);
    expect(eight.frames).toEqual([]);
    expect(data(admin)).toEqual(data(seven));
    await bus.publish(event('identity.settings.changed.v1', { userId: 8, checkInInterval: 60 }));
    expect(types(eight)).toEqual(['account']);
    expect(seven.frames).toHaveLength(3);
  });

  it('replays what a stream missed after its cursor, only what it may see, each once', async () => {
    await start();
    const before = client(7, 'worker');
    feed.attach(before);
    await bus.publish(checkIn(7));
    const cursor = ids(before)[0]!;
    await bus.publish(checkIn(8));
    await bus.publish(checkIn(7));
    const again = client(7, 'worker');
    const { initial } = feed.attach(again, cursor);
    expect(initial.match(/event: worker/g)).toHaveLength(1);
    expect(initial).toContain('"userId":7');
    expect(initial).not.toContain(cursor);
    await bus.publish(checkIn(7));
    expect(types(again)).toEqual(['worker']);
  });

  it('answers reset to a cursor older than the buffer or from another epoch', async () => {
    await start(2);
    const w = client(7, 'worker');
    feed.attach(w);
    for (let i = 0; i < 4; i++) await bus.publish(checkIn(7));
    const [oldest, , third] = ids(w);
    expect(feed.attach(client(7, 'worker'), oldest).initial).toContain('event: reset\ndata: {}');
    expect(feed.attach(client(7, 'worker'), third).initial).toMatch(/^id: \S+\nevent: worker/);
    const [, seq] = third!.split('-');
    expect(feed.attach(client(7, 'worker'), `other-${seq}`).initial).toContain('event: reset');
  });

  it('skips events a stream already has when its cursor is ahead of this process (another replica)', async () => {
    await start();
    await bus.publish(checkIn(7));
    const [epoch, seq] = feed.headCursor().split('-');
    const ahead = client(7, 'worker');
    expect(feed.attach(ahead, `${epoch}-${Number(seq) + 1}`).initial).toBe('');
    await bus.publish(checkIn(7));
    await bus.publish(checkIn(7));
    expect(ids(ahead)).toEqual([`${epoch}-${Number(seq) + 2}`]);
  });

  it('ends every open stream when it stops, and a detached stream gets nothing', async () => {
    await start();
    const open = client(1, 'admin');
    const gone = client(2, 'admin');
    feed.attach(open);
    feed.attach(gone).detach();
    await bus.publish(checkIn(7));
    expect(gone.frames).toEqual([]);
    await feed.stop();
    expect(open.closed).toBe(true);
    expect(feed.size).toBe(0);
  });

  describe("an admin's teams", () => {
    const moved = (userId: number, teamId: number) =>
      event('identity.user.updated.v1', { userId, name: 'Moved Worker', role: 'worker', version: 2, teamId });
    const teamChanged = () =>
      event('identity.team.changed.v1', {
        change: 'updated',
        changedBy: 1,
        team: {
          id: 20,
          name: 'South',
          locationIds: [],
          monitors: [],
          checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] },
          emergencyNumbers: [],
          memberCount: 1,
          version: 2,
          createdAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
        },
      });
    const workerFrames = (c: Client) =>
      c.frames.filter((f) => f.includes('event: worker')).map((f) => JSON.parse(/data: (.*)/.exec(f)![1]).userId as number);
    const scoped = async (c: Client, load: () => Promise<TeamScope | undefined>) =>
      Object.assign(c, { scope: await new LiveScope(load, logger).init() }) as Client;
    const north = (...userIds: number[]): TeamScope => ({ teamIds: new Set([10]), userIds: new Set(userIds) });

    it("sends an admin only their teams' workers, and a worker who moves in from then on", async () => {
      await start();
      const admin = await scoped(client(1, 'admin'), async () => north(7));
      const superadmin = client(2, 'superadmin');
      feed.attach(admin);
      feed.attach(superadmin);
      await bus.publish(checkIn(7));
      await bus.publish(checkIn(8));
      await bus.publish(moved(8, 10));
      await bus.publish(checkIn(8));
      await bus.publish(moved(7, 20));
      await bus.publish(checkIn(7));
      expect(workerFrames(superadmin)).toEqual([7, 8, 8, 7]);
      expect(workerFrames(admin)).toEqual([7, 8]);
      // The move itself reaches the new team's admin (an account frame about the worker).
      expect(admin.frames.filter((f) => f.includes('event: account')).length).toBe(1);
    });

    it("sends an alarm's frames to the admins of the team it opened in, after its worker moved to another team", async () => {
      await start();
      const northAdmin = await scoped(client(1, 'admin'), async () => north());
      const southAdmin = await scoped(client(3, 'admin'), async () => ({ teamIds: new Set([20]), userIds: new Set([7]) }));
      for (const c of [northAdmin, southAdmin]) feed.attach(c);
      const alarmId = randomUUID();
      // Worker 7 now works for South; the alarm opened while they were North's.
      await bus.publish(event('escalation.alarm.acknowledged.v1', { alarmId, userId: 7, byUserId: 1, at: NOW.toISOString(), teamId: 10 }));
      await bus.publish(
        event('escalation.alarm.resolved.v1', {
          alarmId,
          userId: 7,
          byUserId: 1,
          at: NOW.toISOString(),
          verdict: 'genuine',
          note: 'ok',
          teamId: 10,
        }),
      );
      const alarmFrames = (c: Client) => c.frames.filter((f) => f.includes('event: alarm')).length;
      expect(alarmFrames(northAdmin)).toBe(2);
      expect(alarmFrames(southAdmin)).toBe(0);
      // An alarm from before teams (no teamId) follows the worker, as before.
      await bus.publish(
        event('escalation.alarm.acknowledged.v1', { alarmId: randomUUID(), userId: 7, byUserId: 1, at: NOW.toISOString() }),
      );
      expect(alarmFrames(southAdmin)).toBe(1);
      expect(alarmFrames(northAdmin)).toBe(2);
    });

    it('looks the teams up again when a team changes, keeping a move heard while the lookup was in flight', async () => {
      await start();
      let answer: (s: TeamScope) => void = () => undefined;
      let lookups = 0;
      const admin = await scoped(client(1, 'admin'), () => {
        lookups++;
        return lookups === 1 ? Promise.resolve(north(7)) : new Promise<TeamScope>((r) => (answer = r));
      });
      feed.attach(admin);
      await bus.publish(teamChanged());
      expect(lookups).toBe(2);
      // Heard while the lookup is in flight; the answer was read before the move.
      await bus.publish(moved(9, 10));
      answer({ teamIds: new Set([10, 20]), userIds: new Set([7, 30]) });
      await new Promise((r) => setImmediate(r));
      await bus.publish(checkIn(30));
      await bus.publish(checkIn(9));
      expect(workerFrames(admin)).toEqual([30, 9]);
    });

    it('an admin of no team hears nothing about workers; one who comes to monitor every team hears all', async () => {
      await start();
      let current: TeamScope | undefined = { teamIds: new Set(), userIds: new Set() };
      const admin = await scoped(client(1, 'admin'), async () => current);
      feed.attach(admin);
      await bus.publish(checkIn(7));
      expect(workerFrames(admin)).toEqual([]);
      current = undefined;
      await bus.publish(teamChanged());
      await new Promise((r) => setImmediate(r));
      await bus.publish(checkIn(7));
      expect(workerFrames(admin)).toEqual([7]);
    });
  });
});
