import { addLocationSchema, changePasswordFormSchema, changePasswordSchema, createUserSchema, enrolKioskSchema, loginSchema, profileDetailsSchema } from './index';

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

  it('check a password change by the spec, the confirmation in the form only', () => {
    const form = { currentPassword: ' old ', newPassword: ' Chosen123 ', confirmPassword: 'Chosen123' };
    expect(changePasswordFormSchema.parse(form)).toEqual({ currentPassword: 'old', newPassword: 'Chosen123', confirmPassword: 'Chosen123' });
    expect(firstMessage(changePasswordFormSchema.safeParse({ ...form, newPassword: 'chosen123', confirmPassword: 'chosen123' }))).toBe(
      'newPassword: Password must contain at least one uppercase letter',
    );
    expect(firstMessage(changePasswordFormSchema.safeParse({ ...form, confirmPassword: 'Chosen124' }))).toBe("confirmPassword: Passwords don't match");
    // The gateway takes no confirmation: it never leaves the browser.
    expect(firstMessage(changePasswordSchema.safeParse(form))).toMatch(/Unrecognized key.*confirmPassword/);
    expect(changePasswordSchema.parse({ currentPassword: 'old', newPassword: 'Chosen123' })).toEqual({ currentPassword: 'old', newPassword: 'Chosen123' });
  });

  it('name the kiosk and location fields as the Kiosks tab labels them', () => {
    expect(enrolKioskSchema.parse({ name: ' Reception ', location: ' Ground floor ' })).toEqual({ name: 'Reception', location: 'Ground floor' });
    expect(firstMessage(enrolKioskSchema.safeParse({ name: ' ', location: 'x' }))).toBe('name: Kiosk name is required');
    expect(firstMessage(enrolKioskSchema.safeParse({ name: 'x', location: 'y'.repeat(101) }))).toBe('location: Location must be at most 100 characters');
    expect(firstMessage(addLocationSchema.safeParse({ name: '   ' }))).toBe('name: Location name is required');
  });
});
