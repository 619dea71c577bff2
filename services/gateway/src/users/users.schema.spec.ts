import { profilePhone, updateProfileSchema } from './users.schema';

const message = (input: unknown) => {
  const r = profilePhone.safeParse(input);
  return r.success ? r.data : r.error.issues[0].message;
};

describe('profilePhone (spec section 5, profile and contacts)', () => {
  it.each([
    ['07911 123456', '+447911123456'],
    ['447911123456', '+447911123456'],
    ['7911123456', '+447911123456'],
    ['+44 7911 123456', '+447911123456'],
  ])('normalises %s to %s', (input, expected) => expect(message(input)).toBe(expected));

  it.each([
    [undefined, 'Phone number must include country code'],
    ['', 'Phone number must include country code'],
    ['+4479111', 'Phone number must include country code'],
    ['+33612345678', 'Phone number must start with +44 (UK format)'],
    ['+4479111234567', 'Phone number must be in format +44 followed by 10 digits'],
    // The format is right; no operator uses the range: say that, not that the format is wrong.
    ['+447700900123', 'This is not a UK phone number in use: check the digits'],
    ['+447911523456', 'This is not a UK phone number in use: check the digits'],
  ])('answers %p with %s', (input, expected) => expect(message(input)).toBe(expected));
});

describe('updateProfileSchema', () => {
  it('names an unknown field instead of ignoring it', () => {
    const r = updateProfileSchema.safeParse({ name: 'Pat', role: 'admin' });
    expect(r.success ? 'accepted' : r.error.issues[0].message).toBe('Unknown field: role');
  });
});
