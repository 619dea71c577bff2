import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';

interface Kiosk {
  id: number;
  name: string;
  location: string;
  locationId: number | null;
  revokedAt: string | null;
}

interface Place {
  id: number;
  name: string;
  isActive: boolean;
  canChange?: boolean;
}

/**
 * Locations belong to the teams that list them, or to the organisation, and kiosks stand at a
 * location by its id. With two teams, each with its admin, a location's name is only a label: the
 * admin of one team can neither change the other team's locations nor, by renaming, move the other
 * team's kiosks (and their rosters) to their own team.
 */
describe('locations belong to teams, and kiosks follow location ids', () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let adminA: Account;
  let adminB: Account;
  let workerA: Account;
  let workerB: Account;
  let teamA: number;
  let teamB: number;
  let siteA: number;
  let siteB: number;
  const PIN = '4826';

  const place = async (name: string) =>
    (await superadmin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id as number;
  const places = async (who: Account) => (await who.agent.get('/api/location-options').expect(200)).body as Place[];
  const kiosksOf = async (who: Account) => (await who.agent.get('/api/kiosks').expect(200)).body as Kiosk[];
  const rename = (who: Account, id: number, name: string) => who.agent.patch(`/api/location-options/${id}`).set(XHR).send({ name });
  const teamLocations = async (id: number) => (await superadmin.agent.get(`/api/teams/${id}`).expect(200)).body.locationIds as number[];

  async function worker(teamId: number, prefix: string): Promise<Account> {
    const username = `${prefix}${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const body = { username, password, name: `${prefix} person`, phone: nextMobile(), role: 'worker', teamId, pinCode: PIN };
    const res = await superadmin.agent.post('/api/users').set(XHR).send(body).expect(201);
    return { id: res.body.user.id, username, password, role: 'worker', agent: await signIn(t, username, password) };
  }

  /** An admin enrols a browser of its own, which keeps only the device cookie. */
  async function enrolled(admin: Account, body: object) {
    const device = await signIn(t, admin.username, admin.password);
    const res = await device.post('/api/kiosks').set(XHR).send(body).expect(201);
    await device.post('/api/auth/logout').set(XHR).send({}).expect(200);
    return { device, kiosk: res.body as Kiosk };
  }

  const roster = async (device: request.Agent) =>
    ((await device.get('/api/kiosks/roster').expect(200)).body.workers as { id: number }[]).map((w) => w.id);

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    adminA = await createAccount(t, superadmin.agent, 'admin', 'loca');
    adminB = await createAccount(t, superadmin.agent, 'admin', 'locb');
    [siteA, siteB] = [await place('A Depot'), await place('B Depot')];
    // Both admins monitor "Default" as a one-team deployment's do; the superadmin splits it in two.
    const [defaultTeam] = (await superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[];
    await superadmin.agent.patch(`/api/teams/${defaultTeam.id}`).set(XHR).send({ monitors: [] }).expect(200);
    teamA = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Team A', locationIds: [siteA], monitors: [{ userId: adminA.id }] })
        .expect(201)
    ).body.id;
    teamB = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Team B', locationIds: [siteB], monitors: [{ userId: adminB.id }] })
        .expect(201)
    ).body.id;
    workerA = await worker(teamA, 'lwa');
    workerB = await worker(teamB, 'lwb');
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it("renaming locations never moves another team's kiosk: its list, revocation and roster stay with its team, and its name follows", async () => {
    const { device, kiosk } = await enrolled(adminB, { name: 'B front desk', location: 'B Depot' });
    expect(kiosk).toMatchObject({ location: 'B Depot', locationId: siteB });
    expect(await roster(device)).toContain(workerB.id);
    expect(await roster(device)).not.toContain(workerA.id);

    // Team A's admin may not rename team B's location at all: it is not theirs to see.
    expect((await rename(adminA, siteB, 'B Depot (old)').expect(404)).body).toEqual({ message: 'Location not found', field: 'id' });
    // The names swap anyway (the superadmin may rename anything): A's location now has B's old name.
    await rename(superadmin, siteB, 'B Depot (old)').expect(200);
    await rename(superadmin, siteA, 'B Depot').expect(200);

    expect((await kiosksOf(adminA)).map((k) => k.id)).not.toContain(kiosk.id);
    expect((await kiosksOf(adminB)).find((k) => k.id === kiosk.id)).toMatchObject({
      location: 'B Depot (old)',
      locationId: siteB,
      revokedAt: null,
    });
    expect((await adminA.agent.delete(`/api/kiosks/${kiosk.id}`).set(XHR).expect(404)).body).toEqual({
      message: 'Kiosk not found',
      field: 'id',
    });
    expect((await kiosksOf(adminB)).find((k) => k.id === kiosk.id)!.revokedAt).toBeNull();

    const ids = await roster(device);
    expect(ids).toContain(workerB.id);
    expect(ids).not.toContain(workerA.id);
    expect((await device.get('/api/kiosks/roster').expect(200)).body.location).toBe('B Depot (old)');
    expect((await device.get('/api/kiosks/current').expect(200)).body).toEqual({
      enrolled: true,
      name: 'B front desk',
      location: 'B Depot (old)',
    });

    // A worker signed in there starts shifts at B's location, by its name now, also after another rename.
    const login = await device.post('/api/auth/pin-login').set(XHR).send({ username: workerB.username, pin: PIN }).expect(200);
    expect(login.body.kiosk).toEqual({ location: 'B Depot (old)' });
    await rename(superadmin, siteB, 'B Depot North').expect(200);
    expect((await device.get('/api/auth/me').expect(200)).body.kiosk).toEqual({ location: 'B Depot North' });
    await device.post('/api/auth/logout').set(XHR).send({ fromKiosk: true }).expect(200);

    await rename(superadmin, siteA, 'A Depot').expect(200);
    await rename(superadmin, siteB, 'B Depot').expect(200);
  });

  it("an admin changes only their own teams' locations: another team's is a 404, a shared one or one also another team's is a 403 naming why", async () => {
    const shared = await place('Head Office');
    const both = await place('Joint Yard');
    await superadmin.agent
      .patch(`/api/teams/${teamA}`)
      .set(XHR)
      .send({ locationIds: [siteA, both] })
      .expect(200);
    await superadmin.agent
      .patch(`/api/teams/${teamB}`)
      .set(XHR)
      .send({ locationIds: [siteB, both] })
      .expect(200);

    await rename(adminA, siteA, 'A Depot East').expect(200);
    await adminA.agent.patch(`/api/location-options/${siteA}`).set(XHR).send({ isActive: false }).expect(200);
    await adminA.agent.patch(`/api/location-options/${siteA}`).set(XHR).send({ name: 'A Depot', isActive: true }).expect(200);

    for (const call of [
      rename(adminA, siteB, 'Taken'),
      adminA.agent.patch(`/api/location-options/${siteB}`).set(XHR).send({ isActive: false }),
      adminA.agent.delete(`/api/location-options/${siteB}`).set(XHR),
    ]) {
      expect(await call.then((r) => [r.status, r.body])).toEqual([404, { message: 'Location not found', field: 'id' }]);
    }
    const sharedRefused = await adminA.agent.patch(`/api/location-options/${shared}`).set(XHR).send({ isActive: false }).expect(403);
    expect(sharedRefused.body).toEqual({ message: 'Only the superadmin changes a location shared by the whole organisation' });
    await adminA.agent.delete(`/api/location-options/${shared}`).set(XHR).expect(403);
    const bothRefused = await rename(adminA, both, 'My Yard').expect(403);
    expect(bothRefused.body).toEqual({
      message: 'This location also belongs to a team you do not monitor: only the superadmin changes it',
    });

    const byName = new Map((await places(superadmin)).map((l) => [l.id, l]));
    expect([siteB, shared, both].map((id) => [byName.get(id)!.name, byName.get(id)!.isActive])).toEqual([
      ['B Depot', true],
      ['Head Office', true],
      ['Joint Yard', true],
    ]);

    // The list says what each caller may change, so the Locations tab offers only that.
    const mayA = new Map((await places(adminA)).map((l) => [l.id, l.canChange]));
    expect([siteA, siteB, shared, both].map((id) => mayA.get(id))).toEqual([true, false, false, false]);
    expect((await places(superadmin)).every((l) => l.canChange === true)).toBe(true);
    expect((await places(workerA)).some((l) => 'canChange' in l)).toBe(false);

    await superadmin.agent.patch(`/api/location-options/${shared}`).set(XHR).send({ isActive: false }).expect(200);
    // A deleted location leaves the teams that listed it, so saving a team never trips on it.
    await superadmin.agent.delete(`/api/location-options/${both}`).set(XHR).expect(200);
    await eventually(async () => !(await teamLocations(teamA)).includes(both) && !(await teamLocations(teamB)).includes(both), 20_000, 200);
    await superadmin.agent
      .patch(`/api/teams/${teamA}`)
      .set(XHR)
      .send({ locationIds: await teamLocations(teamA) })
      .expect(200);
  });

  it("an admin's new location joins their teams (or those of them named); the superadmin's is the organisation's unless teams are named", async () => {
    const annex = (await adminA.agent.post('/api/location-options').set(XHR).send({ name: 'A Annex' }).expect(201)).body.id as number;
    expect(await teamLocations(teamA)).toContain(annex);
    expect(await teamLocations(teamB)).not.toContain(annex);
    await rename(adminA, annex, 'A Annex West').expect(200);
    await rename(adminB, annex, 'Mine now').expect(404);

    const refused = await adminA.agent
      .post('/api/location-options')
      .set(XHR)
      .send({ name: 'B Sneaky', teamIds: [teamB] })
      .expect(400);
    expect(refused.body).toEqual({ message: 'Team not found', field: 'teamIds.0' });
    expect((await places(superadmin)).some((l) => l.name === 'B Sneaky')).toBe(false);

    const forB = (
      await superadmin.agent
        .post('/api/location-options')
        .set(XHR)
        .send({ name: 'B Store', teamIds: [teamB] })
        .expect(201)
    ).body.id as number;
    expect(await teamLocations(teamB)).toContain(forB);
    await rename(adminB, forB, 'B Store Room').expect(200);
    const orgs = (await superadmin.agent.post('/api/location-options').set(XHR).send({ name: 'Canteen' }).expect(201)).body.id as number;
    expect([...(await teamLocations(teamA)), ...(await teamLocations(teamB))]).not.toContain(orgs);

    const lone = await createAccount(t, superadmin.agent, 'admin', 'lonel');
    const noTeam = await lone.agent.post('/api/location-options').set(XHR).send({ name: 'Nowhere' }).expect(400);
    expect(noTeam.body).toEqual({ message: 'You monitor no team yet: ask the superadmin to add you to one', field: 'teamIds' });

    await adminA.agent.delete(`/api/location-options/${annex}`).set(XHR).expect(200);
    await eventually(async () => !(await teamLocations(teamA)).includes(annex), 20_000, 200);
  });

  it('enrols a kiosk by location id too; a location that does not exist is refused, naming the field', async () => {
    const { kiosk } = await enrolled(adminA, { name: 'A gate', locationId: siteA });
    expect(kiosk).toMatchObject({ name: 'A gate', location: 'A Depot', locationId: siteA });
    const device = await signIn(t, adminA.username, adminA.password);
    expect((await device.post('/api/kiosks').set(XHR).send({ name: 'Lost', location: 'Atlantis' }).expect(400)).body).toEqual({
      message: 'Location not found',
      field: 'location',
    });
    expect((await device.post('/api/kiosks').set(XHR).send({ name: 'Lost', locationId: 999999 }).expect(400)).body).toEqual({
      message: 'Location not found',
      field: 'locationId',
    });
    expect((await device.post('/api/kiosks').set(XHR).send({ name: 'Theirs', locationId: siteB }).expect(400)).body).toEqual({
      message: 'Choose a location of one of your teams',
      field: 'locationId',
    });
    expect((await device.post('/api/kiosks').set(XHR).send({ name: 'Nowhere' }).expect(400)).body).toEqual({
      message: 'Location is required',
      field: 'location',
    });
  });

  it('binds a kiosk enrolled by name before location ids to its location at the next start', async () => {
    const token = randomBytes(32).toString('base64url');
    const { rows } = await db.query(
      `insert into identity.kiosks (name, location, token_hash, enrolled_by) values ('Old B desk', 'b depot', $1, $2) returning id`,
      [createHash('sha256').update(token).digest('hex'), adminB.id],
    );
    const id = rows[0].id as number;
    await t.restart();
    superadmin = await superadminOf(t);
    adminB = { ...adminB, agent: await signIn(t, adminB.username, adminB.password) };
    await eventually(async () => (await kiosksOf(adminB)).find((k) => k.id === id)?.locationId === siteB, 40_000, 250);
    expect((await kiosksOf(adminB)).find((k) => k.id === id)).toMatchObject({ name: 'Old B desk', location: 'B Depot', locationId: siteB });
    const ids = (
      (await request(t.url).get('/api/kiosks/roster').set('Cookie', `lws_kiosk=${token}`).expect(200)).body.workers as { id: number }[]
    ).map((w) => w.id);
    expect(ids).toContain(workerB.id);
    expect(ids).not.toContain(workerA.id);
  }, 120_000);
});
