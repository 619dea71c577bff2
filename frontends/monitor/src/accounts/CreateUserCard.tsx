import { useId, useState, type FormEvent } from 'react';
import {
  ApiError,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  PinInput,
  Select,
  Textarea,
  failureField,
  api,
  useAuth,
  useToast,
} from '@lws/fe-ui';
import { OneTimeSecretDialog, type OneTimeSecret } from './OneTimeSecretDialog';
import {
  toCreateUserRequest,
  validateCreateUser,
  type CreatableRole,
  type CreateUserErrors,
  type CreateUserField,
  type CreateUserInput,
} from './validate-create-user';

const EMPTY: CreateUserInput = { username: '', password: '', name: '', phone: '+44', role: 'worker', medicalInfo: '', pinCode: '' };

/** Spec section 8, "User creation": what to say when the server refuses. */
export function creationFailureText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Failed to create user';
  if (error.serverMessage) return error.serverMessage;
  if (typeof error.body === 'string') {
    if (error.status === 409) return 'Username already exists. Please choose a different username.';
    if (error.status === 401) return 'Not authorized. Please log in again.';
    return `Server error: ${error.status} ${error.statusText}`;
  }
  return 'Failed to create user';
}

function createdUser(body: unknown): { name: string; username: string; generatedPin?: string } | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  const user = v?.user && typeof v.user === 'object' ? (v.user as Record<string, unknown>) : null;
  if (!user || typeof user.name !== 'string' || typeof user.username !== 'string') return null;
  return { name: user.name, username: user.username, ...(typeof v?.generatedPin === 'string' ? { generatedPin: v.generatedPin } : {}) };
}

/**
 * The Create User tab: a worker or an administrator (spec section 2). An administrator an admin
 * creates monitors the teams that admin monitors (identity gives them no others).
 */
export function CreateUserCard() {
  const { user } = useAuth();
  const { toast } = useToast();
  const roles: readonly CreatableRole[] = ['worker', 'admin'];
  const [values, setValues] = useState<CreateUserInput>(EMPTY);
  const [errors, setErrors] = useState<CreateUserErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [creating, setCreating] = useState(false);
  const [revealPin, setRevealPin] = useState(false);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  const baseId = useId();
  const id = (field: CreateUserField) => `${baseId}-${field}`;
  const errorId = (field: CreateUserField) => `${baseId}-${field}-error`;

  const set = <K extends CreateUserField>(field: K, value: CreateUserInput[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // After a first attempt the messages follow the input, so a fixed field clears at once.
    if (submitted) setErrors(validateCreateUser(next, roles));
  };

  const fieldProps = (field: CreateUserField) => ({
    id: id(field),
    invalid: Boolean(errors[field]),
    'aria-describedby': errors[field] ? errorId(field) : undefined,
    'data-testid': `create-${field}`,
  });

  const error = (field: CreateUserField) => (
    <FieldError id={errorId(field)} testId={`create-${field}-error`}>
      {errors[field]}
    </FieldError>
  );

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (creating) return;
    setSubmitted(true);
    const found = validateCreateUser(values, roles);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setCreating(true);
    try {
      const created = createdUser(await api.post('/api/users', toCreateUserRequest(values)));
      if (!created) throw new Error('Invalid server response format');
      toast({ title: 'User Created', message: `${created.name} (${created.username}) has been created successfully.` });
      if (created.generatedPin) {
        setSecret({ title: `PIN for ${created.name}`, owner: created.name, value: created.generatedPin });
      }
      setValues(EMPTY);
      setErrors({});
      setSubmitted(false);
    } catch (e) {
      const field = failureField(e);
      if (field && field in EMPTY) setErrors({ [field]: creationFailureText(e) });
      toast({ title: 'Error Creating User', message: creationFailureText(e), type: 'error' });
    } finally {
      setCreating(false);
    }
  };

  return (
    <Card data-testid="create-user-card">
      <CardHeader>
        <CardTitle>Create New User</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={onSubmit} aria-label="Create new user" data-testid="create-user-form">
          <div className="lws-grid-2">
            <div className="lws-field">
              <Label htmlFor={id('username')}>Username</Label>
              <Input
                {...fieldProps('username')}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                value={values.username}
                onChange={(e) => set('username', e.target.value)}
              />
              {error('username')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('password')}>Password</Label>
              <Input
                {...fieldProps('password')}
                type="password"
                autoComplete="new-password"
                value={values.password}
                onChange={(e) => set('password', e.target.value)}
              />
              {error('password')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('name')}>Full Name</Label>
              <Input {...fieldProps('name')} autoComplete="off" value={values.name} onChange={(e) => set('name', e.target.value)} />
              {error('name')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('phone')}>Phone Number</Label>
              <Input
                {...fieldProps('phone')}
                type="tel"
                inputMode="tel"
                autoComplete="off"
                value={values.phone}
                onChange={(e) => set('phone', e.target.value)}
                aria-describedby={[`${baseId}-phone-hint`, errors.phone ? errorId('phone') : ''].join(' ').trim()}
              />
              <p id={`${baseId}-phone-hint`} className="lws-field-hint">
                UK format with country code (+44)
              </p>
              {error('phone')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('role')}>User Role</Label>
              <Select {...fieldProps('role')} value={values.role} onChange={(e) => set('role', e.target.value as CreatableRole)}>
                <option value="worker">Worker</option>
                <option value="admin">Administrator</option>
              </Select>
              {values.role === 'admin' && user?.role === 'admin' ? (
                <p className="lws-field-hint" data-testid="new-admin-teams-hint">
                  They will monitor the same teams as you.
                </p>
              ) : null}
              {error('role')}
            </div>
            <div className="lws-field">
              <Label htmlFor={id('pinCode')}>PIN (optional)</Label>
              <PinInput
                {...fieldProps('pinCode')}
                value={values.pinCode}
                onChange={(pin) => set('pinCode', pin)}
                reveal={revealPin}
                aria-describedby={[`${baseId}-pin-hint`, errors.pinCode ? errorId('pinCode') : ''].join(' ').trim()}
              />
              <Button size="sm" variant="ghost" aria-pressed={revealPin} onClick={() => setRevealPin((r) => !r)} data-testid="create-pin-reveal">
                {revealPin ? 'Hide PIN' : 'Show PIN'}
              </Button>
              <p id={`${baseId}-pin-hint`} className="lws-field-hint">
                Leave blank to generate a random PIN, shown to you once.
              </p>
              {error('pinCode')}
            </div>
          </div>
          <div className="lws-field">
            <Label htmlFor={id('medicalInfo')}>Medical Information</Label>
            <Textarea
              {...fieldProps('medicalInfo')}
              maxLength={2000}
              value={values.medicalInfo}
              onChange={(e) => set('medicalInfo', e.target.value)}
            />
            {error('medicalInfo')}
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={creating} data-testid="create-submit">
              {creating ? 'Creating...' : 'Create User'}
            </Button>
          </div>
        </form>
      </CardContent>
      <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </Card>
  );
}
