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
  LOCATION_NAME_MAX,
  PASSWORD_CONFIRM_REQUIRED,
  PASSWORDS_DIFFER,
  addLocationSchema,
  changePasswordFormSchema,
  changePasswordSchema,
  enrolKioskSchema,
  locationName,
  contactDetailsSchema,
  contactRelation,
  PIN_FORMAT,
  createUserSchema,
  loginSchema,
  profileDetailsSchema,
  profileName,
  unknownFieldErrors,
} from './forms';
export type { AddLocationForm, ChangePasswordForm, EnrolKioskForm, ContactDetailsForm, CreatableRole, CreateUserForm, CreateUserRequest, ProfileDetailsForm } from './forms';
