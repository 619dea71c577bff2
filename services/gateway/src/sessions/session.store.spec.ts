import { MemorySessionStore, type SessionData } from './session.store';

const data = (userId: number): SessionData => ({
  userId,
  role: 'worker',
  username: `u${userId}`,
  name: 'U',
  remember: false,
  kiosk: false,
  createdAt: new Date().toISOString(),
});

describe('MemorySessionStore.destroyAllForUser', () => {
  it("revokes every session of the user but the one kept, and nobody else's", async () => {
    const store = new MemorySessionStore();
    const [a, b, c] = [await store.create(data(1), 60), await store.create(data(1), 60), await store.create(data(1), 60)];
    const other = await store.create(data(2), 60);
    await store.destroyAllForUser(1, b);
    expect(await store.get(a)).toBeUndefined();
    expect(await store.get(b)).toMatchObject({ userId: 1 });
    expect(await store.get(c)).toBeUndefined();
    expect(await store.get(other)).toMatchObject({ userId: 2 });
    await store.destroyAllForUser(1);
    expect(await store.get(b)).toBeUndefined();
  });
});
