import { useId, useState, type FormEvent } from 'react';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  Textarea,
  api,
  failureMessage,
  useToast,
} from '@lws/fe-ui';

export const MEDICAL_INFO_MAX_LENGTH = 2000;

export interface MedicalInfoCardProps {
  userId: number;
  /** The saved text; the card is re-mounted when it changes, so the field starts from it. */
  medicalInfo: string;
  onSaved(): Promise<unknown>;
}

export function MedicalInfoCard({ userId, medicalInfo, onSaved }: MedicalInfoCardProps) {
  const { toast } = useToast();
  const [text, setText] = useState(medicalInfo);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const hintId = useId();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    try {
      await api.patch(`/api/users/${userId}`, { medicalInfo: text });
      toast({ title: 'Medical information updated', message: 'Responders will see what you saved.' });
      await onSaved().catch((e: unknown) => console.error('Reloading the profile failed', e));
    } catch (e) {
      toast({ title: 'Update failed', message: failureMessage(e, 'Your medical information could not be saved. Please try again.'), type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="profile-medical">
      <CardHeader>
        <CardTitle>Medical Information</CardTitle>
        <CardDescription>Anything responders should know in an emergency.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={onSubmit} aria-label="Medical information">
          <div className="lws-field">
            <Label htmlFor={id}>Medical Information</Label>
            <Textarea
              id={id}
              value={text}
              maxLength={MEDICAL_INFO_MAX_LENGTH}
              placeholder="Conditions, allergies, medication, blood type..."
              aria-describedby={hintId}
              onChange={(e) => setText(e.target.value)}
              data-testid="medical-info-input"
            />
            <p id={hintId} className="lws-field-hint">
              Free text, up to {MEDICAL_INFO_MAX_LENGTH} characters.
            </p>
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="medical-info-save">
              {saving ? 'Saving...' : 'Save Medical Information'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
