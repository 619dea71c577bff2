export {
  PHONE_FORMAT,
  PHONE_NEEDS_COUNTRY_CODE,
  UK_PHONE_PATTERN,
  creationPhone,
  normaliseUkPhone,
  prepareCreationPhone,
  profilePhone,
} from './phone';
export {
  CREATABLE_ROLES,
  contactDetailsSchema,
  contactRelation,
  PIN_FORMAT,
  createUserSchema,
  loginSchema,
  profileDetailsSchema,
  profileName,
  unknownFieldErrors,
} from './forms';
export type { ContactDetailsForm, CreatableRole, CreateUserForm, CreateUserRequest, ProfileDetailsForm } from './forms';
