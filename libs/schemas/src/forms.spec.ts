import { createUserSchema, loginSchema, profileDetailsSchema } from './index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string; path: (string | number)[] }[] } }) =>
  r.success ? 'accepted' : `${r.error!.issues[0].path.join('.')}: ${r.error!.issues[0].message}`;

const FORM = { username: ' Bo.Field ', password: 'secret1', name: ' Bo Field ', phone: '44 7911 123456', role: 'worker', medicalInfo: '  ', pinCode: '' };

describe('the forms\' schemas, shared by the screens and the gateway (issue 14)', () => {
  it('turn a filled-in create-user form into the request the gateway takes: trimmed, lower-cased, blanks left out', () => {
    expect(createUserSchema.parse(FORM)).toEqual({ username: 'bo.field', password: 'secret1', name: 'Bo Field', phone: '+447911123456', role: 'worker' });
    expect(createUserSchema.parse({ ...FORM, pinCode: '4821', medicalInfo: ' Asthma ' })).toMatchObject({ pinCode: '4821', medicalInfo: 'Asthma' });
  });

  it('say the spec\'s words for a broken create-user field (the gateway\'s test compares every field with POST /api/users)', () => {
    expect(firstMessage(createUserSchema.safeParse({ ...FORM, phone: '+3312345678' }))).toBe('phone: Phone should start with +44 for UK format');
    expect(firstMessage(createUserSchema.safeParse({ ...FORM, pinCode: '12a4' }))).toBe('pinCode: PIN must be exactly 4 digits');
  });

  it('check a login as the login form and POST /api/auth/login both do', () => {
    expect(loginSchema.parse({ username: ' Ann ', password: 'x' })).toEqual({ username: 'ann', password: 'x', rememberMe: false });
    expect(firstMessage(loginSchema.safeParse({ username: ' ', password: 'x' }))).toBe('username: Username is required');
    expect(firstMessage(loginSchema.safeParse({ username: 'ann', password: '' }))).toBe('password: Password is required');
  });

  it('normalise a profile phone as typed and say why one does not fit', () => {
    expect(profileDetailsSchema.parse({ name: ' Ann ', phone: '07911 123456' })).toEqual({ name: 'Ann', phone: '+447911123456' });
    expect(firstMessage(profileDetailsSchema.safeParse({ name: 'A', phone: '+447911123456' }))).toBe('name: Name is too short');
    expect(firstMessage(profileDetailsSchema.safeParse({ name: 'Ann', phone: '+33612345678' }))).toBe('phone: Phone number must start with +44 (UK format)');
  });
});
