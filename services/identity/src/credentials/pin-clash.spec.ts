import { isPinClash } from './pin-clash';

describe('isPinClash', () => {
  it('recognises the PIN unique index however the driver wraps the error', () => {
    const pg = Object.assign(new Error('duplicate key value violates unique constraint "users_pin_hash_unique"'), {
      code: '23505',
      constraint: 'users_pin_hash_unique',
    });
    expect(isPinClash(pg)).toBe(true);
    expect(isPinClash(new Error('Failed query', { cause: pg }))).toBe(true);
    const pglite = Object.assign(new Error('duplicate key value violates unique constraint "users_pin_hash_unique"'), { code: '23505' });
    expect(isPinClash(pglite)).toBe(true);
  });

  it('leaves other errors alone, a taken username included', () => {
    expect(isPinClash(Object.assign(new Error('dup'), { code: '23505', constraint: 'users_username_unique' }))).toBe(false);
    expect(isPinClash(new Error('connection reset'))).toBe(false);
    expect(isPinClash(undefined)).toBe(false);
  });
});
