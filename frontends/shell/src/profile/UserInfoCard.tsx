import { useId, useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  api,
  failureField,
  failureMessage,
  normaliseUkPhone,
  roleLabel,
  useAuth,
  useToast,
  type User,
} from '@lws/fe-ui';
import { UkPhoneField } from './UkPhoneField';
import type { ProfileTeam } from './profile-data';
import { hasErrors, validateProfile, type Errors } from './profile-validation';

type Field = 'name' | 'phone';

/** Who the user is, and a worker's team and its monitors; name and phone can be edited here. */
export function UserInfoCard({ user, team }: { user: User; team: ProfileTeam | null }) {
  const { refresh } = useAuth();
  const { toast } = useToast();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [saving, setSaving] = useState(false);
  const nameId = useId();
  const nameErrorId = useId();

  const startEditing = () => {
    setName(user.name);
    setPhone(user.phone ?? '+44');
    setErrors({});
    setEditing(true);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const input = { name: name.trim(), phone: normaliseUkPhone(phone) };
    setPhone(input.phone);
    const found = validateProfile(input);
    setErrors(found);
    if (hasErrors(found)) return;
    setSaving(true);
    try {
      await api.patch(`/api/users/${user.id}`, input);
      await refresh();
      toast({ title: 'Profile updated', message: 'Your name and phone number have been saved.' });
      setEditing(false);
    } catch (e) {
      const field = failureField(e);
      if (field === 'name' || field === 'phone') setErrors({ [field]: failureMessage(e, '') });
      toast({ title: 'Update failed', message: failureMessage(e, 'Your profile could not be saved. Please try again.'), type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="profile-user-info">
      <CardHeader>
        <CardTitle>Your Details</CardTitle>
        <CardDescription>Your name and phone number as monitors see them.</CardDescription>
      </CardHeader>
      <CardContent>
        {editing ? (
          <form className="lws-form" noValidate onSubmit={onSubmit} aria-label="Edit your details" data-testid="profile-edit-form">
            <div className="lws-field">
              <Label htmlFor={nameId}>Full Name</Label>
              <Input
                id={nameId}
                autoComplete="name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                invalid={Boolean(errors.name)}
                aria-describedby={errors.name ? nameErrorId : undefined}
                data-testid="profile-name-input"
              />
              <FieldError id={nameErrorId} testId="profile-name-input-error">
                {errors.name}
              </FieldError>
            </div>
            <UkPhoneField label="Phone Number" value={phone} onChange={setPhone} error={errors.phone} testId="profile-phone-input" />
            <div className="lws-actions">
              <Button type="submit" busy={saving} data-testid="profile-save">
                {saving ? 'Saving...' : 'Save'}
              </Button>
              <Button variant="outline" disabled={saving} onClick={() => setEditing(false)} data-testid="profile-cancel">
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <>
            <dl className="lws-info-list" data-testid="profile-details">
              <dt>Name</dt>
              <dd data-testid="profile-name">{user.name}</dd>
              <dt>Username</dt>
              <dd data-testid="profile-username">{user.username}</dd>
              <dt>Role</dt>
              <dd>
                <Badge variant="info">{roleLabel(user.role)}</Badge>
              </dd>
              <dt>Phone</dt>
              <dd data-testid="profile-phone">{user.phone || 'Not set'}</dd>
              {team ? (
                <>
                  <dt>Team</dt>
                  <dd data-testid="profile-team">{team.name}</dd>
                  <dt>Monitors</dt>
                  <dd data-testid="profile-monitors">{team.monitors.length > 0 ? team.monitors.join(', ') : 'Every admin'}</dd>
                </>
              ) : null}
            </dl>
            <div className="lws-actions lws-actions--spaced">
              <Button variant="outline" onClick={startEditing} data-testid="profile-edit">
                Edit Details
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
