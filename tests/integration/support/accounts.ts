import request from 'supertest';
import { connect, JSONCodec, type NatsConnection } from 'nats';
import { XHR, type TestStack } from './test-stack';

let phoneCounter = 0;
/** Each test file has a stack of its own; within it, numbers are counted from a random start. */
const FIRST_PHONE = Math.floor(Math.random() * 70000);

/**
 * A real-format UK mobile not used by another test user of this file (the 07700 900xxx drama range
 * is invalid): no two workers may share a number, as a texted PIN finds its worker by it.
 */
export function nextMobile(): string {
  phoneCounter += 1;
  return `+4479111${String(20000 + ((FIRST_PHONE + phoneCounter) % 70000)).padStart(5, '0')}`;
}

export interface Account {
  id: number;
  username: string;
  password: string;
  role: 'worker' | 'admin' | 'superadmin';
  agent: request.Agent;
}

export async function signIn(t: TestStack, username: string, password: string): Promise<request.Agent> {
  const agent = request.agent(t.url);
  await agent.post('/api/auth/login').set(XHR).send({ username, password }).expect(200);
  return agent;
}

export async function superadminOf(t: TestStack): Promise<Account> {
  const agent = await signIn(t, t.superadmin.username, t.superadmin.password);
  const me = await agent.get('/api/auth/me').expect(200);
  return { id: me.body.id, username: t.superadmin.username, password: t.superadmin.password, role: 'superadmin', agent };
}

/** Creates an account through the API as `creator` and signs it in. */
export async function createAccount(t: TestStack, creator: request.Agent, role: 'worker' | 'admin', prefix = role): Promise<Account> {
  const username = `${prefix}${Math.random().toString(36).slice(2, 9)}`;
  const password = 'Secret1pass';
  const res = await creator
    .post('/api/users')
    .set(XHR)
    .send({ username, password, name: `${prefix} person`, phone: nextMobile(), role })
    .expect(201);
  return { id: res.body.user.id, username, password, role, agent: await signIn(t, username, password) };
}

export interface EventEnvelopeLike {
  subject: string;
  data: Record<string, unknown>;
}

/** Listens to every event the stack publishes (core NATS sees what JetStream stores). */
export async function listenToEvents(t: TestStack) {
  const nc: NatsConnection = await connect({ servers: t.env.NATS_URL });
  const prefix = t.env.SUBJECT_PREFIX ?? '';
  const seen: EventEnvelopeLike[] = [];
  const codec = JSONCodec<EventEnvelopeLike>();
  const sub = nc.subscribe(`${prefix}identity.>`);
  void (async () => {
    for await (const m of sub) seen.push(codec.decode(m.data));
  })();
  await nc.flush();
  return {
    seen,
    of: (subject: string) => seen.filter((e) => e.subject === subject).map((e) => e.data),
    close: () => nc.close(),
  };
}
