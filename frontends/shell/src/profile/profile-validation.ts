export type Errors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}

export function validateSettings(input: { primaryContact: string }): Errors<'primaryContact'> {
  return input.primaryContact.trim().length < 10 ? { primaryContact: 'Phone number is too short' } : {};
}

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

/** Spec section 5, "Change password": every rule on trimmed values, first broken rule per field. */
export function validatePasswordChange(input: PasswordChange): Errors<keyof PasswordChange> {
  const current = input.currentPassword.trim();
  const next = input.newPassword.trim();
  const confirm = input.confirmPassword.trim();
  const errors: Errors<keyof PasswordChange> = {};
  if (!current) errors.currentPassword = 'Current password is required';
  if (next.length < 6) errors.newPassword = 'New password must be at least 6 characters';
  else if (!/[A-Z]/.test(next)) errors.newPassword = 'Password must contain at least one uppercase letter';
  else if (!/[0-9]/.test(next)) errors.newPassword = 'Password must contain at least one number';
  if (!confirm) errors.confirmPassword = 'Please confirm your password';
  else if (confirm !== next) errors.confirmPassword = "Passwords don't match";
  return errors;
}
