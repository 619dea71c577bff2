import type { Db, Logger } from '@lws/platform';
import { PinAssigner } from './pin-assigner';
import { PinHasher } from './pin-hasher';

const logger = { warn: () => undefined } as unknown as Logger;
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the database must not be used');
    },
  },
) as Db;

describe('PinAssigner', () => {
  it("never draws the worker's duress PIN (a PIN reset): it draws again until the PIN differs", async () => {
    const hasher = new PinHasher({ PIN_HASH_KEY: 'k'.repeat(32) } as never, noDatabase, logger);
    await hasher.onModuleInit();
    const duress = hasher.hash('1357');
    jest.spyOn(hasher, 'randomPin').mockReturnValueOnce('1357').mockReturnValueOnce('1357').mockReturnValueOnce('2468');
    const written: string[] = [];
    const { generatedPin } = await new PinAssigner(hasher).assign(undefined, async (pinHash) => written.push(pinHash), duress);
    expect(generatedPin).toBe('2468');
    expect(written).toEqual([hasher.hash('2468')]);
  });

  it('keeps a PIN the caller chose, and returns none to show', async () => {
    const hasher = new PinHasher({ PIN_HASH_KEY: 'k'.repeat(32) } as never, noDatabase, logger);
    await hasher.onModuleInit();
    const written: string[] = [];
    expect(await new PinAssigner(hasher).assign('4821', async (pinHash) => written.push(pinHash))).toEqual({ result: 1 });
    expect(written).toEqual([hasher.hash('4821')]);
  });
});
