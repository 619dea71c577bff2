import { createUserSchema as formSchema } from '@lws/schemas';
import { createUserSchema } from './users.schema';

// The Create User form checks with @lws/schemas; POST /api/users with that schema plus a real-number
// check. What a user reads under a field must be what the gateway would answer.

const firstMessage = (r: { success: boolean; error?: { issues: { message: string; path: (string | number)[] }[] } }) =>
  r.success ? 'accepted' : `${r.error!.issues[0].path.join('.')}: ${r.error!.issues[0].message}`;

const FORM = {
  username: ' Bo.Field ',
  password: 'secret1',
  name: ' Bo Field ',
  phone: '44 7911 123456',
  role: 'worker',
  medicalInfo: '  ',
  pinCode: '',
};

describe('POST /api/users and the Create User form say the same', () => {
  it('take the same filled-in form to the same request', () => {
    expect(createUserSchema.parse(FORM)).toEqual(formSchema.parse(FORM));
  });

  it.each([
    [{ username: 'ab' }, 'username: Username must be at least 3 characters'],
    [{ password: '12345' }, 'password: Password must be at least 6 characters'],
    [{ name: 'A' }, 'name: Name must be at least 2 characters'],
    [{ phone: '+44' }, 'phone: Phone number must include country code'],
    [{ phone: '+3312345678' }, 'phone: Phone should start with +44 for UK format'],
    [{ phone: '+44791112345' }, 'phone: Phone number must be in format +44 followed by 10 digits'],
    [{ pinCode: '12a4' }, 'pinCode: PIN must be exactly 4 digits'],
    [{ role: 'superadmin' }, 'role: Role must be worker or admin'],
  ])('for %p', (change, expected) => {
    expect(firstMessage(formSchema.safeParse({ ...FORM, ...change }))).toBe(expected);
    expect(firstMessage(createUserSchema.safeParse({ ...FORM, ...change }))).toBe(expected);
  });

  it('but only the gateway refuses a number no UK line has (the form leaves libphonenumber out)', () => {
    const drama = { ...FORM, phone: '+447700900123' };
    expect(firstMessage(formSchema.safeParse(drama))).toBe('accepted');
    expect(firstMessage(createUserSchema.safeParse(drama))).toBe('phone: This is not a UK phone number in use: check the digits');
  });
});
