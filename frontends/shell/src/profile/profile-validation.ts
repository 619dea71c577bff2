export type Errors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}

export function validateSettings(input: { primaryContact: string }): Errors<'primaryContact'> {
  return input.primaryContact.trim().length < 10 ? { primaryContact: 'Phone number is too short' } : {};
}
