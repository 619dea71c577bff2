import { decodeCursor, encodeCursor } from './cursor';

describe('dashboard cursors', () => {
  it('hand back the position they were made from', () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    expect(decodeCursor('due', encodeCursor('due', { userId: 42, nextCheckInAt: at }))).toEqual({ userId: 42, nextCheckInAt: at });
    expect(decodeCursor('active', encodeCursor('active', { userId: 7 }))).toEqual({ userId: 7 });
  });

  it("refuse another list's cursor", () => {
    const due = encodeCursor('due', { userId: 42, nextCheckInAt: new Date() });
    expect(decodeCursor('missed', due)).toBeUndefined();
    expect(decodeCursor('active', due)).toBeUndefined();
  });

  const b64 = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['active', 'not a cursor at all'],
    ['active', b64('{"l":"active","u":0}')],
    ['active', b64('{"l":"active","u":3,"x":1}')],
    ['due', b64('{"l":"due","u":3}')],
    ['missed', b64('[1]')],
  ] as const)('refuse a forged or broken %s cursor (%s)', (list, cursor) => {
    expect(decodeCursor(list, cursor)).toBeUndefined();
  });
});
