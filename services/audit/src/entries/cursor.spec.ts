import { decodeCursor, encodeCursor } from './cursor';

describe('activity log cursors', () => {
  it('hand back the position they were made from, to the millisecond', () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    expect(decodeCursor(encodeCursor({ at, id: 42 }))).toEqual({ at, id: 42 });
  });

  const b64 = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['not base64 json', 'not a cursor at all'],
    ['a missing id', b64('{"t":"2030-01-02T03:04:05.678Z"}')],
    ['an id of 0', b64('{"t":"2030-01-02T03:04:05.678Z","i":0}')],
    ['a fractional id', b64('{"t":"2030-01-02T03:04:05.678Z","i":1.5}')],
    ['a time that is not one', b64('{"t":"yesterday","i":3}')],
    ['an extra field', b64('{"t":"2030-01-02T03:04:05.678Z","i":3,"u":7}')],
    ['an array', b64('[1]')],
  ])('refuse a forged or broken cursor (%s)', (_why, cursor) => {
    expect(decodeCursor(cursor)).toBeUndefined();
  });
});
