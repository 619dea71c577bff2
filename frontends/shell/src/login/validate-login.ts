export interface LoginFields {
  username: string;
  password: string;
}

export type LoginErrors = Partial<Record<keyof LoginFields, string>>;

export function validateLogin({ username, password }: LoginFields): LoginErrors {
  const errors: LoginErrors = {};
  if (!username.trim()) errors.username = 'Username is required';
  if (!password) errors.password = 'Password is required';
  return errors;
}
