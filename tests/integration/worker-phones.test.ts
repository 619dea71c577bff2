import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';

const SITE = 'The Prospect Building';
const TAKEN = { message: 'This phone number is already used by another worker', field: 'phone' };

/**
 * A texted PIN finds its worker by the sender's number, so a worker's number is their own: it is
 * refused when another worker has it, on create, on a profile change and in an import. Workers who
 * already share a number (from before) are told to check in in the app when they text a PIN,
 * rather than hearing nothing.
 */
describe("a worker's phone number is their own", () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let admin: Account;

  const worker = (phone: string, extra: object = {}) => ({
    username: `ph${Math.random().toString(36).slice(2, 9)}`,
    password: 'Secret1pass',
    name: 'Phone Person',
    phone,
    role: 'worker',
    ...extra,
  });
  const count = async (username: string) =>
    (await db.query('select count(*)::int as n from identity.users where username = $1', [username])).rows[0].n as number;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'padmin');
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it("refuses another worker's number on create and on a profile change (400 naming phone), writing nothing", async () => {
    const phone = nextMobile();
    const first = (await admin.agent.post('/api/users').set(XHR).send(worker(phone)).expect(201)).body.user;
    // The same number as typed differently.
    const second = worker(` ${phone.slice(1, 3)} ${phone.slice(3)}`);
    expect((await admin.agent.post('/api/users').set(XHR).send(second).expect(400)).body).toEqual(TAKEN);
    expect(await count(second.username)).toBe(0);

    const other = await createAccount(t, admin.agent, 'worker', 'pother');
    expect((await other.agent.patch(`/api/users/${other.id}`).set(XHR).send({ name: 'Other Person', phone }).expect(400)).body).toEqual(
      TAKEN,
    );
    expect((await other.agent.get(`/api/users/${other.id}/with-relations`).expect(200)).body.name).toBe('pother person');
    expect((await db.query('select phone from identity.users where id = $1', [other.id])).rows[0].phone).not.toBe(phone);

    // An admin may share it (a supervisor who also works shifts, a shared duty phone): only workers text PINs.
    await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ ...worker(phone), role: 'admin' })
      .expect(201);
    // The worker keeps their own number through any edit.
    await admin.agent.patch(`/api/users/${first.id}`).set(XHR).send({ name: 'Phone Keeper', phone }).expect(200);
  });

  it('refuses it in an import, against existing workers and between rows of the file', async () => {
    const existing = await createAccount(t, admin.agent, 'worker', 'pimp');
    const untouched = await createAccount(t, admin.agent, 'worker', 'punt');
    const phoneOf = async (a: Account) =>
      (await db.query('select phone from identity.users where id = $1', [a.id])).rows[0].phone as string;
    const mine = await phoneOf(existing);
    const twice = nextMobile();
    const csv = [
      'username,name,phone,role,team,pin',
      `imp.taker,Imp Taker,${await phoneOf(untouched)},worker,,`,
      `imp.one,Imp One,${twice},worker,,`,
      `imp.two,Imp Two,${twice},worker,,`,
      `${existing.username},Kept Number,${mine},worker,,`,
      `imp.admin,Imp Admin,${mine},admin,,`,
    ].join('\n');
    const res = await superadmin.agent.post('/api/users/import?dryRun=true').set(XHR).set('Content-Type', 'text/csv').send(csv).expect(200);
    expect(res.body.rows).toEqual([
      { row: 2, username: 'imp.taker', action: 'error', errors: [TAKEN] },
      {
        row: 3,
        username: 'imp.one',
        action: 'error',
        errors: [{ field: 'phone', message: 'Another worker in the file has this phone number (row 4)' }],
      },
      {
        row: 4,
        username: 'imp.two',
        action: 'error',
        errors: [{ field: 'phone', message: 'Another worker in the file has this phone number (row 3)' }],
      },
      { row: 5, username: existing.username, action: 'updated', fields: ['name'] },
      { row: 6, username: 'imp.admin', action: 'created' },
    ]);
    await superadmin.agent.post('/api/users/import').set(XHR).set('Content-Type', 'text/csv').send(csv).expect(422);
    expect(await count('imp.taker')).toBe(0);
  });

  it('a PIN texted from a number several workers already share is answered: check in in the app', async () => {
    const a = await pinWorker();
    const b = await pinWorker();
    // Shared before numbers had to be a worker's own.
    await db.query('update identity.users set phone = $1 where id = $2', [a.phone, b.id]);
    await eventually(
      async () => (await a.agent.post(`/api/users/${a.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      20_000,
      100,
    );
    const reply = (await superadmin.agent.post('/api/test-provider/inbound-sms').set(XHR).send({ from: a.phone, body: a.pin }).expect(200))
      .body.reply;
    expect(reply).toBe(
      'LWS: this number belongs to more than one worker, so a texted PIN cannot check you in. Please check in in the LWS app, and ask your monitor to give each worker their own number.',
    );
    expect((await a.agent.get(`/api/users/${a.id}/with-relations`).expect(200)).body.latestCheckIn).toBeNull();
    // They can still be edited, keeping the number they share.
    await admin.agent.patch(`/api/users/${b.id}`).set(XHR).send({ name: 'Still Shared', phone: a.phone }).expect(200);
  });

  async function pinWorker(): Promise<Account & { phone: string; pin: string }> {
    const pin = String(2000 + Math.floor(Math.random() * 7000));
    const body = worker(nextMobile(), { pinCode: pin });
    const res = await admin.agent.post('/api/users').set(XHR).send(body).expect(201);
    return {
      id: res.body.user.id,
      username: body.username,
      password: body.password,
      role: 'worker',
      agent: await signIn(t, body.username, body.password),
      phone: body.phone,
      pin,
    };
  }
});
