import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';
import { streamEvents } from './support/stream-events';

/**
 * Teams: the model and its API. A deployment starts with one team,
 * "Default", which every worker joins and every admin monitors, so a single-team deployment
 * behaves as before; the superadmin adds teams, moves workers, and an admin reads the teams they
 * monitor.
 */
describe('teams', () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let admin: Account;
  let worker: Account;
  let defaultTeam: { id: number; name: string };
  let locationId: number;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'tadmin');
    worker = await createAccount(t, admin.agent, 'worker', 'tworker');
    locationId = (await superadmin.agent.post('/api/location-options').set(XHR).send({ name: 'North Depot' }).expect(201)).body.id;
    defaultTeam = ((await superadmin.agent.get('/api/teams').expect(200)).body as { id: number; name: string }[]).find(
      (x) => x.name === 'Default',
    )!;
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('starts with one team, "Default": new workers join it and new admins monitor it', async () => {
    const teams = (await superadmin.agent.get('/api/teams').expect(200)).body;
    expect(teams).toEqual([
      expect.objectContaining({
        id: defaultTeam.id,
        name: 'Default',
        monitors: [{ userId: admin.id }],
        checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 50, 60, 120, 240] },
        escalationPolicy: null,
        emergencyNumbers: [],
        memberCount: 1,
      }),
    ]);
    const members = (await admin.agent.get(`/api/teams/${defaultTeam.id}/members`).expect(200)).body;
    expect(members).toEqual([{ id: worker.id, username: worker.username, name: expect.any(String) }]);
    expect((await db.query('select team_id from identity.users where id = $1', [worker.id])).rows[0].team_id).toBe(defaultTeam.id);
    expect((await db.query('select team_id from identity.users where id = $1', [admin.id])).rows[0].team_id).toBeNull();
  });

  it('the superadmin creates a team with locations, monitors and deputies, a check-in policy and its own escalation', async () => {
    const deputy = await createAccount(t, superadmin.agent, 'admin', 'tdeputy');
    const policy = {
      missed_check_in: [
        { action: 'notify_monitors', after: 0 },
        { action: 'call_emergency_numbers', after: 60 },
      ],
    };
    const res = await superadmin.agent
      .post('/api/teams')
      .set(XHR)
      .send({
        name: 'Estates North',
        locationIds: [locationId],
        monitors: [{ userId: admin.id, deputyUserId: deputy.id }],
        checkInPolicy: { defaultInterval: 120, allowedIntervals: [60, 120] },
        escalationPolicy: policy,
        emergencyNumbers: ['07911 123456'],
      })
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'Estates North',
      locationIds: [locationId],
      monitors: [{ userId: admin.id, deputyUserId: deputy.id }],
      checkInPolicy: { defaultInterval: 120, allowedIntervals: [60, 120] },
      escalationPolicy: {
        missed_check_in: [
          { action: 'notify_monitors', after: 0 },
          { action: 'call_emergency_numbers', after: 60, unlessAcknowledged: true },
        ],
      },
      emergencyNumbers: ['+447911123456'],
      memberCount: 0,
      version: 1,
    });
    const event = await eventually(async () =>
      (await streamEvents(t, 'identity.team.changed.v1')).find((e) => e.data.team.id === res.body.id),
    );
    expect(event.data).toMatchObject({ change: 'created', changedBy: superadmin.id, team: { name: 'Estates North', version: 1 } });
    // The deputy reads it too; a second team shows on the admin's list.
    expect((await deputy.agent.get(`/api/teams/${res.body.id}`).expect(200)).body.name).toBe('Estates North');
    expect(((await admin.agent.get('/api/teams').expect(200)).body as { name: string }[]).map((x) => x.name).sort()).toEqual([
      'Default',
      'Estates North',
    ]);
    // With two teams, a new admin is not made anyone's monitor: the superadmin chooses.
    const later = await createAccount(t, superadmin.agent, 'admin', 'tlater');
    expect((await later.agent.get('/api/teams').expect(200)).body).toEqual([]);
    await later.agent.get(`/api/teams/${res.body.id}`).expect(404);
  });

  it('refuses a wrong team by naming the field, and changes nothing', async () => {
    const before = (await db.query('select count(*)::int as n from identity.teams')).rows[0].n;
    const cases: [object, number, string][] = [
      [{}, 400, 'name'],
      [{ name: 'Default' }, 409, 'name'],
      [{ name: 'default' }, 409, 'name'],
      [{ name: 'X', monitors: [{ userId: worker.id }] }, 400, 'monitors.0.userId'],
      [{ name: 'X', monitors: [{ userId: admin.id, deputyUserId: admin.id }] }, 400, 'monitors.0.deputyUserId'],
      [{ name: 'X', monitors: [{ userId: admin.id }, { userId: admin.id }] }, 400, 'monitors.1.userId'],
      [{ name: 'X', locationIds: [987654] }, 400, 'locationIds.0'],
      [{ name: 'X', checkInPolicy: { defaultInterval: 30, allowedIntervals: [60] } }, 400, 'checkInPolicy.defaultInterval'],
      [{ name: 'X', checkInPolicy: { defaultInterval: 45, allowedIntervals: [45] } }, 400, 'checkInPolicy.defaultInterval'],
      [
        { name: 'X', escalationPolicy: { missed_check_in: [{ action: 'launch_rockets', after: 0 }] } },
        400,
        'escalationPolicy.missed_check_in.0.action',
      ],
      // A step that waits for the calls needs a call step before it.
      [
        {
          name: 'X',
          escalationPolicy: {
            emergency: [
              { action: 'notify_monitors', after: 0 },
              { action: 'message_contacts', after: 'calls_done' },
            ],
          },
        },
        400,
        'escalationPolicy.emergency.1.after',
      ],
      [{ name: 'X', emergencyNumbers: ['javascript:alert(1)'] }, 400, 'emergencyNumbers.0'],
      [{ name: 'X', isDefault: true }, 400, 'isDefault'],
    ];
    for (const [body, status, field] of cases) {
      const res = await superadmin.agent.post('/api/teams').set(XHR).send(body);
      expect([body, res.status, res.body.field]).toEqual([body, status, field]);
    }
    await admin.agent.post('/api/teams').set(XHR).send({ name: 'By an admin' }).expect(403);
    expect((await db.query('select count(*)::int as n from identity.teams')).rows[0].n).toBe(before);
  });

  it('moves a worker to another team (superadmin only); a team with workers cannot be deleted, an empty one can', async () => {
    const team = (await superadmin.agent.post('/api/teams').set(XHR).send({ name: 'Care East' }).expect(201)).body;
    const w = await createAccount(t, superadmin.agent, 'worker', 'tmove');
    await admin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: team.id }).expect(403);
    await w.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: team.id }).expect(403);
    expect(
      (await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: team.id, name: 'Both' }).expect(400)).body.field,
    ).toBe('teamId');
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: team.id }).expect(200, { teamId: team.id });
    expect((await superadmin.agent.patch(`/api/users/${admin.id}`).set(XHR).send({ teamId: team.id }).expect(400)).body.message).toBe(
      'Only workers belong to a team',
    );
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: 987654 }).expect(400);

    const refused = await superadmin.agent.delete(`/api/teams/${team.id}`).set(XHR).expect(409);
    expect(refused.body.message).toBe('This team has 1 worker: move them to another team first');
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: defaultTeam.id }).expect(200);
    await superadmin.agent.delete(`/api/teams/${team.id}`).set(XHR).expect(200, { ok: true });
    await superadmin.agent.get(`/api/teams/${team.id}`).expect(404);
  });

  it('creates a worker straight into a team; an admin is in none, and adds workers to their own teams only', async () => {
    const team = (await superadmin.agent.post('/api/teams').set(XHR).send({ name: 'Field Crew' }).expect(201)).body;
    // The admin does not monitor Field Crew: naming it is as if it did not exist.
    const notTheirs = await admin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: `crewx${Date.now()}`, password: 'secret1', name: 'Crew Member', phone: nextMobile(), teamId: team.id })
      .expect(400);
    expect(notTheirs.body).toEqual({ message: 'Team not found', field: 'teamId' });
    const created = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: `crew${Date.now()}`, password: 'secret1', name: 'Crew Member', phone: nextMobile(), teamId: team.id })
      .expect(201);
    expect(created.body.user.teamId).toBe(team.id);
    const members = (await superadmin.agent.get(`/api/teams/${team.id}/members`).expect(200)).body;
    expect(members.map((m: { id: number }) => m.id)).toEqual([created.body.user.id]);
    const noTeam = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username: `nteam${Date.now()}`, password: 'secret1', name: 'No Team', phone: nextMobile(), teamId: 987654 })
      .expect(400);
    expect(noTeam.body).toEqual({ message: 'Team not found', field: 'teamId' });
    const adminInTeam = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({
        username: `ateam${Date.now()}`,
        password: 'secret1',
        name: 'Admin Team',
        phone: nextMobile(),
        role: 'admin',
        teamId: team.id,
      })
      .expect(400);
    expect(adminInTeam.body.field).toBe('teamId');
  });

  it('an admin creates an administrator, who monitors exactly the teams the creating admin monitors', async () => {
    const creator = await createAccount(t, superadmin.agent, 'admin', 'tcreator');
    const crew = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Night Crew', monitors: [{ userId: creator.id }] })
        .expect(201)
    ).body;
    const crewWorker = await createAccount(t, superadmin.agent, 'worker', 'tcrewworker');
    await superadmin.agent.patch(`/api/users/${crewWorker.id}`).set(XHR).send({ teamId: crew.id }).expect(200);

    const made = await createAccount(t, creator.agent, 'admin', 'tmade');
    const teams = (await superadmin.agent.get('/api/teams').expect(200)).body as { id: number; monitors: { userId: number }[] }[];
    expect(teams.find((x) => x.id === crew.id)!.monitors).toEqual([{ userId: creator.id }, { userId: made.id }]);
    expect(teams.filter((x) => x.monitors.some((m) => m.userId === made.id)).map((x) => x.id)).toEqual([crew.id]);
    // The new admin sees the creator's team's workers, and nobody else's.
    const listed = ((await made.agent.get('/api/worker-accounts').expect(200)).body as { id: number }[]).map((u) => u.id);
    expect(listed).toContain(crewWorker.id);
    expect(listed).not.toContain(worker.id);
    // An admin cannot place a new administrator in a team either.
    const placed = await creator.agent
      .post('/api/users')
      .set(XHR)
      .send({
        username: `tplaced${Date.now()}`,
        password: 'secret1',
        name: 'Placed Admin',
        phone: nextMobile(),
        role: 'admin',
        teamId: crew.id,
      })
      .expect(400);
    expect(placed.body.field).toBe('teamId');
  });

  it("an admin sees and acts on only their teams' workers: another team's worker is a 404, in the account list as by id", async () => {
    const adminB = await createAccount(t, superadmin.agent, 'admin', 'tadminb');
    const teamB = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Team B', monitors: [{ userId: adminB.id }] })
        .expect(201)
    ).body;
    const workerB = await createAccount(t, superadmin.agent, 'worker', 'tworkerb');
    await superadmin.agent.patch(`/api/users/${workerB.id}`).set(XHR).send({ teamId: teamB.id }).expect(200);
    const contactB = (
      await workerB.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: workerB.id, name: 'B Contact', phone: nextMobile(), relation: 'Friend' })
        .expect(201)
    ).body.id;

    const listed = async (a: Account) =>
      ((await a.agent.get('/api/worker-accounts').expect(200)).body as { id: number }[]).map((u) => u.id);
    expect(await listed(admin)).toContain(worker.id);
    expect(await listed(admin)).not.toContain(workerB.id);
    expect(await listed(adminB)).toEqual([workerB.id]);
    expect(await listed(superadmin)).toEqual(expect.arrayContaining([worker.id, workerB.id, admin.id]));
    const workers = async (a: Account) => ((await a.agent.get('/api/data/workers').expect(200)).body as { id: number }[]).map((u) => u.id);
    expect(await workers(adminB)).toEqual([workerB.id]);
    expect(await workers(admin)).not.toContain(workerB.id);
    expect(await workers(superadmin)).toEqual(expect.arrayContaining([worker.id, workerB.id]));

    // Acting on another team's worker: as if they did not exist.
    await admin.agent.get(`/api/users/${workerB.id}/with-relations`).expect(404);
    await admin.agent.patch(`/api/users/${workerB.id}`).set(XHR).send({ name: 'Renamed' }).expect(404);
    await admin.agent.patch(`/api/users/${workerB.id}/settings`).set(XHR).send({ primaryContact: '+447911123456' }).expect(404);
    await admin.agent.patch(`/api/emergency-contacts/${contactB}`).set(XHR).send({ name: 'Changed' }).expect(404);
    await admin.agent.delete(`/api/users/${workerB.id}`).set(XHR).expect(404);
    await adminB.agent.get(`/api/users/${worker.id}/with-relations`).expect(404);
    // Their own team's worker as before, and the superadmin anyone.
    await adminB.agent.get(`/api/users/${workerB.id}/with-relations`).expect(200);
    await admin.agent.get(`/api/users/${worker.id}/with-relations`).expect(200);
    await superadmin.agent.get(`/api/users/${workerB.id}/with-relations`).expect(200);
    expect((await db.query('select name from identity.users where id = $1', [workerB.id])).rows[0].name).not.toBe('Renamed');
  });

  it('edits a team: the fields sent change, the version rises, and another admin cannot see it', async () => {
    const team = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Edit Me', monitors: [{ userId: admin.id }] })
        .expect(201)
    ).body;
    const res = await superadmin.agent
      .patch(`/api/teams/${team.id}`)
      .set(XHR)
      .send({ name: 'Edited', checkInPolicy: { defaultInterval: 30, allowedIntervals: [30, 60] } })
      .expect(200);
    expect(res.body).toMatchObject({
      name: 'Edited',
      monitors: [{ userId: admin.id }],
      checkInPolicy: { defaultInterval: 30, allowedIntervals: [30, 60] },
      version: 2,
    });
    expect((await superadmin.agent.patch(`/api/teams/${team.id}`).set(XHR).send({}).expect(400)).body.message).toBe('Nothing to update');
    const stranger = await createAccount(t, superadmin.agent, 'admin', 'tstranger');
    await stranger.agent.get(`/api/teams/${team.id}`).expect(404);
    await stranger.agent.get(`/api/teams/${team.id}/members`).expect(404);
    await worker.agent.get('/api/teams').expect(403);
  });

  it('an admin marks themselves away until a time and back; other services hear it; nonsense is refused by name', async () => {
    const until = new Date(Date.now() + 3 * 24 * 3600_000).toISOString();
    expect((await admin.agent.post(`/api/users/${admin.id}/away`).set(XHR).send({ until }).expect(200)).body).toEqual({ awayUntil: until });
    const heard = await eventually(async () =>
      (await streamEvents(t, 'identity.user.updated.v1')).find((e) => e.data.userId === admin.id && e.data.awayUntil === until),
    );
    expect(heard.data).toMatchObject({ role: 'admin', awayUntil: until });
    expect((await db.query('select away_until from identity.users where id = $1', [admin.id])).rows[0].away_until.toISOString()).toBe(
      until,
    );
    expect((await admin.agent.get(`/api/users/${admin.id}/with-relations`).expect(200)).body.awayUntil).toBe(until);

    const refused: [object, string][] = [
      [{ until: new Date(Date.now() - 60_000).toISOString() }, 'Choose a time in the future'],
      [{ until: new Date(Date.now() + 91 * 24 * 3600_000).toISOString() }, 'Away for at most 90 days'],
      [{ until: 'next tuesday' }, 'until must be a date and time, e.g. 2026-12-01T09:00:00Z, or null to be back'],
      [{}, 'until must be a date and time, e.g. 2026-12-01T09:00:00Z, or null to be back'],
    ];
    for (const [body, message] of refused) {
      expect((await admin.agent.post(`/api/users/${admin.id}/away`).set(XHR).send(body).expect(400)).body).toEqual({
        message,
        field: 'until',
      });
    }
    const other = await createAccount(t, superadmin.agent, 'admin', 'taway');
    await admin.agent.post(`/api/users/${other.id}/away`).set(XHR).send({ until }).expect(403);
    await worker.agent.post(`/api/users/${worker.id}/away`).set(XHR).send({ until }).expect(403);
    expect((await superadmin.agent.post(`/api/users/${worker.id}/away`).set(XHR).send({ until }).expect(400)).body.message).toBe(
      'Only admins monitor teams',
    );
    expect((await superadmin.agent.post(`/api/users/${other.id}/away`).set(XHR).send({ until }).expect(200)).body).toEqual({
      awayUntil: until,
    });
    // Still away as set: the refusals changed nothing. Back now:
    expect((await db.query('select away_until from identity.users where id = $1', [admin.id])).rows[0].away_until.toISOString()).toBe(
      until,
    );
    expect((await admin.agent.post(`/api/users/${admin.id}/away`).set(XHR).send({ until: null }).expect(200)).body).toEqual({
      awayUntil: null,
    });
    expect((await db.query('select away_until from identity.users where id = $1', [admin.id])).rows[0].away_until).toBeNull();
    expect((await admin.agent.get(`/api/users/${admin.id}/with-relations`).expect(200)).body.awayUntil).toBeNull();
  });

  it('a deleted admin leaves the teams they monitor or deputise for, so the team can still be edited', async () => {
    const [leaving, staying] = [
      await createAccount(t, superadmin.agent, 'admin', 'tleave'),
      await createAccount(t, superadmin.agent, 'admin', 'tstay'),
    ];
    const team = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({
          name: 'Leavers',
          monitors: [
            { userId: leaving.id, deputyUserId: staying.id },
            { userId: staying.id, deputyUserId: leaving.id },
          ],
        })
        .expect(201)
    ).body;
    await superadmin.agent.delete(`/api/users/${leaving.id}`).set(XHR).expect(200);
    const after = (await superadmin.agent.get(`/api/teams/${team.id}`).expect(200)).body;
    expect(after).toMatchObject({ monitors: [{ userId: staying.id }], version: 2 });
    await superadmin.agent.patch(`/api/teams/${team.id}`).set(XHR).send({ name: 'Leavers renamed' }).expect(200);
    const heard = await eventually(async () =>
      (await streamEvents(t, 'identity.team.changed.v1')).find((e) => e.data.team.id === team.id && e.data.team.version === 2),
    );
    expect(heard.data.team.monitors).toEqual([{ userId: staying.id }]);
  });

  it('two renames racing to the same name: one wins, the other is a 409 naming the field, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all(
        ['a', 'b'].map(
          async (x) =>
            (
              await superadmin.agent
                .post('/api/teams')
                .set(XHR)
                .send({ name: `Race ${round}${x}` })
                .expect(201)
            ).body.id as number,
        ),
      );
      const answers = await Promise.all(
        [a, b].map((id) =>
          superadmin.agent
            .patch(`/api/teams/${id}`)
            .set(XHR)
            .send({ name: `Raced ${round}` }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body).toEqual({ message: expect.any(String), field: 'name' });
    }
  });
});
