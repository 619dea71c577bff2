import { createLocationSchema, updateLocationSchema } from './locations.schema';

const firstIssue = (r: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  r.success ? 'accepted' : [r.error!.issues[0].path.join('.'), r.error!.issues[0].message];

describe('createLocationSchema', () => {
  it('trims the name and leaves isActive to the default', () => {
    expect(createLocationSchema.parse({ name: '  Depot North ' })).toEqual({ name: 'Depot North' });
    expect(createLocationSchema.parse({ name: 'Depot', isActive: false })).toEqual({ name: 'Depot', isActive: false });
  });

  it.each([[{}], [{ name: '' }], [{ name: '   ' }], [{ name: 42 }], [{ name: null }]])('requires a name: %p', (body) => {
    expect(firstIssue(createLocationSchema.safeParse(body))).toEqual(['name', 'Location name is required']);
  });

  it('refuses a name over 100 characters after trimming, and accepts exactly 100', () => {
    expect(firstIssue(createLocationSchema.safeParse({ name: 'x'.repeat(101) }))).toEqual([
      'name',
      'Location name must be at most 100 characters',
    ]);
    expect(firstIssue(createLocationSchema.safeParse({ name: ` ${'x'.repeat(100)} ` }))).toBe('accepted');
  });

  it('refuses a non-boolean isActive and unknown fields', () => {
    expect(firstIssue(createLocationSchema.safeParse({ name: 'Depot', isActive: 'yes' }))).toEqual([
      'isActive',
      'isActive must be true or false',
    ]);
    expect(firstIssue(createLocationSchema.safeParse({ name: 'Depot', id: 3 }))).toEqual(['', 'Unknown field: id']);
  });
});

describe('updateLocationSchema', () => {
  it('takes a name alone or isActive alone', () => {
    expect(updateLocationSchema.parse({ name: ' Depot ' })).toEqual({ name: 'Depot' });
    expect(updateLocationSchema.parse({ isActive: false })).toEqual({ isActive: false });
  });

  it('refuses an edited name that is empty after trimming, and an empty edit', () => {
    expect(firstIssue(updateLocationSchema.safeParse({ name: '  ' }))).toEqual(['name', 'Location name is required']);
    expect(firstIssue(updateLocationSchema.safeParse({}))).toEqual(['', 'Nothing to update']);
  });
});
