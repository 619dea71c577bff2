import { useId, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  FieldError,
  Input,
  Label,
  api,
  failureField,
  failureMessage,
  normaliseUkPhone,
  useToast,
} from '@lws/fe-ui';
import { UkPhoneField } from './UkPhoneField';
import type { EmergencyContact } from './profile-data';
import { hasErrors, validateContact, type Errors } from './profile-validation';

type Field = 'name' | 'phone' | 'relation';

export interface ContactDialogProps {
  userId: number;
  /** The contact being edited; null adds a new one. */
  contact: EmergencyContact | null;
  onClose(): void;
  onSaved(): void;
}

/** Add or edit one emergency contact. Mounted only while open, so each opening starts clean. */
export function ContactDialog({ userId, contact, onClose, onSaved }: ContactDialogProps) {
  const { toast } = useToast();
  const [name, setName] = useState(contact?.name ?? '');
  const [phone, setPhone] = useState(contact?.phone ?? '+44');
  const [relation, setRelation] = useState(contact?.relation ?? '');
  const [errors, setErrors] = useState<Errors<Field>>({});
  const [saving, setSaving] = useState(false);
  const ids = { name: useId(), nameError: useId(), relation: useId(), relationError: useId() };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const input = { name: name.trim(), phone: normaliseUkPhone(phone), relation: relation.trim() };
    setPhone(input.phone);
    const found = validateContact(input);
    setErrors(found);
    if (hasErrors(found)) return;
    setSaving(true);
    try {
      if (contact) await api.patch(`/api/emergency-contacts/${contact.id}`, { ...input, userId });
      else await api.post('/api/emergency-contacts', { ...input, userId });
      toast({
        title: contact ? 'Emergency contact updated' : 'Emergency contact created',
        message: `${input.name} will be told if you raise an emergency.`,
      });
      onSaved();
    } catch (e) {
      const field = failureField(e);
      if (field === 'name' || field === 'phone' || field === 'relation') setErrors({ [field]: failureMessage(e, '') });
      toast({ title: 'Update failed', message: failureMessage(e, 'The contact could not be saved. Please try again.'), type: 'error' });
      setSaving(false);
    }
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={contact ? 'Edit Emergency Contact' : 'Add Emergency Contact'}
      description="Who should be told if you raise an emergency."
      data-testid="contact-dialog"
    >
      <form className="lws-form" noValidate onSubmit={onSubmit} aria-label={contact ? 'Edit emergency contact' : 'Add emergency contact'}>
        <div className="lws-field">
          <Label htmlFor={ids.name}>Name</Label>
          <Input
            id={ids.name}
            value={name}
            onChange={(e) => setName(e.target.value)}
            invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? ids.nameError : undefined}
            data-testid="contact-name"
          />
          <FieldError id={ids.nameError} testId="contact-name-error">
            {errors.name}
          </FieldError>
        </div>
        <UkPhoneField label="Phone Number" value={phone} onChange={setPhone} error={errors.phone} testId="contact-phone" />
        <div className="lws-field">
          <Label htmlFor={ids.relation}>Relation</Label>
          <Input
            id={ids.relation}
            placeholder="e.g. Partner, Parent, Friend"
            value={relation}
            onChange={(e) => setRelation(e.target.value)}
            invalid={Boolean(errors.relation)}
            aria-describedby={errors.relation ? ids.relationError : undefined}
            data-testid="contact-relation"
          />
          <FieldError id={ids.relationError} testId="contact-relation-error">
            {errors.relation}
          </FieldError>
        </div>
        <div className="lws-dialog__footer">
          <Button variant="outline" disabled={saving} onClick={onClose} data-testid="contact-cancel">
            Cancel
          </Button>
          <Button type="submit" busy={saving} data-testid="contact-save">
            {saving ? 'Saving...' : 'Save Contact'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
