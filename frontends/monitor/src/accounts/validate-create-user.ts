import { prepareCreationPhone, validateCreationPhone } from '@lws/fe-ui';

export type CreatableRole = 'worker' | 'admin';

export interface CreateUserInput {
  username: string;
  password: string;
  name: string;
  phone: string;
  role: CreatableRole;
  medicalInfo: string;
  /** Blank asks the server to generate one, shown once. */
  pinCode: string;
}

export type CreateUserField = keyof CreateUserInput;
export type CreateUserErrors = Partial<Record<CreateUserField, string>>;

export interface CreateUserRequest {
  username: string;
  password: string;
  name: string;
  phone: string;
  role: CreatableRole;
  medicalInfo?: string;
  pinCode?: string;
}

/** Spec section 5, "User creation (admin)": the first broken rule per field. */
export function validateCreateUser(input: CreateUserInput, roles: readonly CreatableRole[]): CreateUserErrors {
  const errors: CreateUserErrors = {};
  if (input.username.trim().length < 3) errors.username = 'Username must be at least 3 characters';
  if (input.password.length < 6) errors.password = 'Password must be at least 6 characters';
  if (input.name.trim().length < 2) errors.name = 'Name must be at least 2 characters';
  const phone = validateCreationPhone(prepareCreationPhone(input.phone));
  if (phone) errors.phone = phone;
  if (!roles.includes(input.role)) errors.role = 'Role must be worker or admin';
  if (input.pinCode && !/^\d{4}$/.test(input.pinCode)) errors.pinCode = 'PIN must be exactly 4 digits';
  return errors;
}

/** What is sent: trimmed, the username lower-cased (login lower-cases it too), the phone prepared, blanks left out. */
export function toCreateUserRequest(input: CreateUserInput): CreateUserRequest {
  const medicalInfo = input.medicalInfo.trim();
  return {
    username: input.username.trim().toLowerCase(),
    password: input.password,
    name: input.name.trim(),
    phone: prepareCreationPhone(input.phone),
    role: input.role,
    ...(medicalInfo ? { medicalInfo } : {}),
    ...(input.pinCode ? { pinCode: input.pinCode } : {}),
  };
}
