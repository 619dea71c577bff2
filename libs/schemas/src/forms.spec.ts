import {
  inboundSmsSchema,
  resolveAlarmFormSchema,
  resolveAlarmSchema,
  testCallFormSchema,
  testCallSchema,
  awayFormSchema,
  awaySchema,
  contactSettingsSchema,
  medicalInfoSchema,
  addLocationSchema,
  changePasswordFormSchema,
  changePasswordSchema,
  createUserSchema,
  enrolKioskSchema,
  loginSchema,
  profileDetailsSchema,
} from './index';

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

describe("the forms' schemas, shared by the screens and the gateway", () => {
  it('turn a filled-in create-user form into the request the gateway takes: trimmed, lower-cased, blanks left out', () => {
    expect(createUserSchema.parse(FORM)).toEqual({
      username: 'bo.field',
      password: 'secret1',
      name: 'Bo Field',
      phone: '+447911123456',
      role: 'worker',
    });
    expect(createUserSchema.parse({ ...FORM, pinCode: '4821', medicalInfo: ' Asthma ' })).toMatchObject({
      pinCode: '4821',
      medicalInfo: 'Asthma',
    });
  });

  it("say the spec's words for a broken create-user field (the gateway's test compares every field with POST /api/users)", () => {
    expect(firstMessage(createUserSchema.safeParse({ ...FORM, phone: '+3312345678' }))).toBe(
      'phone: Phone should start with +44 for UK format',
    );
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
    expect(firstMessage(profileDetailsSchema.safeParse({ name: 'Ann', phone: '+33612345678' }))).toBe(
      'phone: Phone number must start with +44 (UK format)',
    );
  });

  it('check a password change by the spec, the confirmation in the form only', () => {
    const form = { currentPassword: ' old ', newPassword: ' Chosen123 ', confirmPassword: 'Chosen123' };
    expect(changePasswordFormSchema.parse(form)).toEqual({
      currentPassword: 'old',
      newPassword: 'Chosen123',
      confirmPassword: 'Chosen123',
    });
    expect(firstMessage(changePasswordFormSchema.safeParse({ ...form, newPassword: 'chosen123', confirmPassword: 'chosen123' }))).toBe(
      'newPassword: Password must contain at least one uppercase letter',
    );
    expect(firstMessage(changePasswordFormSchema.safeParse({ ...form, confirmPassword: 'Chosen124' }))).toBe(
      "confirmPassword: Passwords don't match",
    );
    // The gateway takes no confirmation: it never leaves the browser.
    expect(firstMessage(changePasswordSchema.safeParse(form))).toMatch(/Unrecognized key.*confirmPassword/);
    expect(changePasswordSchema.parse({ currentPassword: 'old', newPassword: 'Chosen123' })).toEqual({
      currentPassword: 'old',
      newPassword: 'Chosen123',
    });
  });

  it('name the kiosk and location fields as the Kiosks tab labels them', () => {
    expect(enrolKioskSchema.parse({ name: ' Reception ', location: ' Ground floor ' })).toEqual({
      name: 'Reception',
      location: 'Ground floor',
    });
    expect(firstMessage(enrolKioskSchema.safeParse({ name: ' ', location: 'x' }))).toBe('name: Kiosk name is required');
    expect(firstMessage(enrolKioskSchema.safeParse({ name: 'x', location: 'y'.repeat(101) }))).toBe(
      'location: Location must be at most 100 characters',
    );
    expect(firstMessage(addLocationSchema.safeParse({ name: '   ' }))).toBe('name: Location name is required');
  });

  it('check contact settings as typed; the gateway adds whether the number can exist', () => {
    expect(contactSettingsSchema.parse({ primaryContact: ' 07911 123456 ', secondaryContact: '  ', checkInInterval: '120' })).toEqual({
      primaryContact: '07911 123456',
      secondaryContact: null,
      checkInInterval: 120,
    });
    expect(firstMessage(contactSettingsSchema.safeParse({ primaryContact: '12345' }))).toBe('primaryContact: Phone number is too short');
    expect(firstMessage(contactSettingsSchema.safeParse({ primaryContact: 'javascript:alert(1)//' }))).toBe(
      'primaryContact: Please enter a valid phone number, e.g. +447700900123',
    );
    expect(firstMessage(contactSettingsSchema.safeParse({ primaryContact: '07911123456', checkInInterval: '45' }))).toBe(
      'checkInInterval: Check-in interval must be 30, 50, 60, 120 or 240 minutes',
    );
  });

  it('take the medical information as text of at most 2000 characters', () => {
    expect(medicalInfoSchema.parse({ medicalInfo: 'Asthma' })).toEqual({ medicalInfo: 'Asthma' });
    expect(firstMessage(medicalInfoSchema.safeParse({ medicalInfo: 'x'.repeat(2001) }))).toBe(
      'medicalInfo: Medical information must be at most 2000 characters',
    );
  });

  it("turn the Away form's local time into the instant POST /api/users/{id}/away takes", () => {
    const { until } = awayFormSchema.parse({ until: '2030-06-01T09:30' });
    expect(until).toBe(new Date('2030-06-01T09:30').toISOString());
    expect(awaySchema.parse({ until })).toEqual({ until });
    expect(firstMessage(awayFormSchema.safeParse({ until: '' }))).toBe('until: Choose a date and time');
    expect(awaySchema.parse({ until: null })).toEqual({ until: null });
  });

  it('check a test call and a text to LWS by one international-number rule; the test call form also takes 07...', () => {
    expect(testCallFormSchema.parse({ phoneNumber: '07700 900123', workerName: ' Ann ' })).toEqual({
      phoneNumber: '+447700900123',
      workerName: 'Ann',
    });
    expect(testCallSchema.parse({ phoneNumber: '+1 (555) 010-0000' }).phoneNumber).toBe('+15550100000');
    expect(firstMessage(testCallSchema.safeParse({ phoneNumber: '07700 900123' }))).toBe('phoneNumber: Please enter a valid phone number');
    expect(firstMessage(inboundSmsSchema.safeParse({ from: '+447700900123', body: '  ' }))).toBe('body: Please enter the message text');
  });

  it('resolve an alarm only with an outcome, its detail and a note, in words a monitor reads', () => {
    expect(resolveAlarmSchema.parse({ verdict: 'false_alarm', reason: 'no_signal', note: ' Battery died ' })).toEqual({
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Battery died',
    });
    expect(resolveAlarmSchema.parse({ verdict: 'genuine', severity: 'serious', note: 'Police attended' })).toEqual({
      verdict: 'genuine',
      severity: 'serious',
      note: 'Police attended',
    });
    expect(resolveAlarmSchema.parse({ verdict: 'test', note: 'Quarterly drill' })).toEqual({ verdict: 'test', note: 'Quarterly drill' });
    expect(firstMessage(resolveAlarmSchema.safeParse({ verdict: '', note: 'x' }))).toBe(
      'verdict: Choose whether the alarm was genuine, a false alarm or a test',
    );
    expect(firstMessage(resolveAlarmSchema.safeParse({ verdict: 'genuine', note: 'x' }))).toBe(
      'severity: Choose how serious the incident was',
    );
    expect(firstMessage(resolveAlarmSchema.safeParse({ verdict: 'false_alarm', note: 'x' }))).toBe(
      'reason: Choose why the alarm was false',
    );
    expect(firstMessage(resolveAlarmSchema.safeParse({ verdict: 'false_alarm', reason: 'bored', note: 'x' }))).toBe(
      'reason: Choose why the alarm was false',
    );
    expect(firstMessage(resolveAlarmSchema.safeParse({ verdict: 'genuine', severity: 'minor', note: ' ' }))).toBe(
      'note: Please write a note on how the alarm was resolved',
    );
    // A detail of another outcome is refused, not stored against the wrong one.
    expect(resolveAlarmSchema.safeParse({ verdict: 'test', reason: 'device', note: 'x' }).success).toBe(false);
    expect(resolveAlarmSchema.safeParse({ verdict: 'genuine', severity: 'minor', reason: 'device', note: 'x' }).success).toBe(false);
  });

  it("the Resolve Alarm dialog sends only the chosen outcome's detail", () => {
    const form = { verdict: 'false_alarm', severity: 'critical', reason: 'device', note: 'Phone died' } as const;
    expect(resolveAlarmFormSchema.parse(form)).toEqual({ verdict: 'false_alarm', reason: 'device', note: 'Phone died' });
    expect(resolveAlarmFormSchema.parse({ ...form, verdict: 'genuine' })).toEqual({
      verdict: 'genuine',
      severity: 'critical',
      note: 'Phone died',
    });
    expect(resolveAlarmFormSchema.parse({ ...form, verdict: 'test' })).toEqual({ verdict: 'test', note: 'Phone died' });
    expect(firstMessage(resolveAlarmFormSchema.safeParse({ verdict: '', severity: '', reason: '', note: 'x' }))).toBe(
      'verdict: Choose whether the alarm was genuine, a false alarm or a test',
    );
    // An empty dialog names both what to choose and what to write.
    // (The browser's radio groups read null while nothing is checked.)
    const empty = resolveAlarmFormSchema.safeParse({ verdict: null, severity: null, reason: null, note: ' ' });
    expect(empty.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'verdict: Choose whether the alarm was genuine, a false alarm or a test',
      'note: Please write a note on how the alarm was resolved',
    ]);
    expect(firstMessage(resolveAlarmFormSchema.safeParse({ verdict: 'genuine', severity: '', reason: 'device', note: 'x' }))).toBe(
      'severity: Choose how serious the incident was',
    );
  });
});
