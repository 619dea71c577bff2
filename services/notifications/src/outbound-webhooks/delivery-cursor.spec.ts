import { decodeDeliveryCursor, encodeDeliveryCursor } from './delivery-cursor';

describe('webhook delivery log cursors', () => {
  const id = '7b0d6f1e-2c4a-4e9b-9d51-3a8f0c2e5b77';

  it('hand back the position they were made from, to the millisecond', () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    expect(decodeDeliveryCursor(encodeDeliveryCursor({ at, id }))).toEqual({ at, id });
  });

  const b64 = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['not base64 json', 'not a cursor at all'],
    ['an activity log cursor (a numeric id)', b64('{"t":"2030-01-02T03:04:05.678Z","i":42}')],
    ['an id that is not a uuid', b64('{"t":"2030-01-02T03:04:05.678Z","i":"1 OR 1=1"}')],
    ['a time that is not one', b64(`{"t":"yesterday","i":"${id}"}`)],
    ['an extra field', b64(`{"t":"2030-01-02T03:04:05.678Z","i":"${id}","e":"x"}`)],
    ['null', b64('null')],
  ])('refuse a forged or foreign cursor (%s)', (_why, cursor) => {
    expect(decodeDeliveryCursor(cursor)).toBeUndefined();
  });
});
