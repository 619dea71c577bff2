import { createContactSchema, settingsSchema } from './profile.schema';

describe('settingsSchema', () => {
  it('accepts a numeric-string interval, leaves an absent one to the interval that applies now and turns a blank secondary contact into null', () => {
    expect(settingsSchema.parse({ primaryContact: ' +447911123456 ', checkInInterval: '240' })).toEqual({
      primaryContact: '+447911123456',
      secondaryContact: null,
      checkInInterval: 240,
    });
    expect(settingsSchema.parse({ primaryContact: '+447911123456', secondaryContact: '  ' }).checkInInterval).toBeUndefined();
    expect(settingsSchema.parse({ primaryContact: '+447911123456', secondaryContact: '  ' }).secondaryContact).toBeNull();
  });

  it.each([[45], ['60 minutes'], [null], [60.5]])('refuses the interval %p', (checkInInterval) => {
    const r = settingsSchema.safeParse({ primaryContact: '+447911123456', checkInInterval });
    expect(r.success ? 'accepted' : r.error.issues[0].message).toBe('Check-in interval must be 30, 50, 60, 120 or 240 minutes');
  });
});

describe('createContactSchema', () => {
  it('requires a relation', () => {
    const r = createContactSchema.safeParse({ userId: '7', name: 'Sam', phone: '07911123456', relation: '  ' });
    expect(r.success ? 'accepted' : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['relation', 'Relation is required'],
    ]);
  });
});
