import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button, Dialog, FieldError, Input, Label, api, failureField, failureMessage, msg, useT, useToast } from '@lws/fe-ui';
import { contactDetailsSchema, type ContactDetailsForm } from '@lws/schemas';
import { UkPhoneField } from './UkPhoneField';
import type { EmergencyContact } from './profile-data';

export interface ContactDialogProps {
  userId: number;
  /** The contact being edited; null adds a new one. */
  contact: EmergencyContact | null;
  onClose(): void;
  onSaved(): void;
}

/**
 * Add or edit one emergency contact. Mounted only while open, so each opening starts clean. The
 * gateway's own schema checks it, so the words under a field are the server's.
 */
export function ContactDialog({ userId, contact, onClose, onSaved }: ContactDialogProps) {
  const { toast } = useToast();
  const t = useT();
  const form = useForm<ContactDetailsForm, unknown, z.output<typeof contactDetailsSchema>>({
    resolver: zodResolver(contactDetailsSchema),
    defaultValues: { name: contact?.name ?? '', phone: contact?.phone ?? '+44', relation: contact?.relation ?? '' },
  });
  const { errors, isSubmitting: saving } = form.formState;
  const ids = { name: useId(), nameError: useId(), relation: useId(), relationError: useId() };

  const onSubmit = form.handleSubmit(async (input) => {
    // What is saved is what the field shows: the number in +44 form.
    form.setValue('phone', input.phone);
    try {
      if (contact) await api.patch(`/api/emergency-contacts/${contact.id}`, { ...input, userId });
      else await api.post('/api/emergency-contacts', { ...input, userId });
      toast({
        title: contact ? t('Emergency contact updated') : t('Emergency contact created'),
        message: t('{{name}} will be told if you raise an emergency.', { name: input.name }),
      });
      onSaved();
    } catch (e) {
      const field = failureField(e);
      if (field === 'name' || field === 'phone' || field === 'relation') form.setError(field, { message: failureMessage(e, '') });
      toast({
        title: t('Update failed'),
        message: t(failureMessage(e, msg('The contact could not be saved. Please try again.'))),
        type: 'error',
      });
    }
  });

  return (
    <Dialog
      open
      onClose={() => {
        if (!saving) onClose();
      }}
      title={contact ? t('Edit Emergency Contact') : t('Add Emergency Contact')}
      description={t('Who should be told if you raise an emergency.')}
      data-testid="contact-dialog"
    >
      <form
        className="lws-form"
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={contact ? t('Edit emergency contact') : t('Add emergency contact')}
      >
        <div className="lws-field">
          <Label htmlFor={ids.name}>{t('Name')}</Label>
          <Input
            {...form.register('name')}
            id={ids.name}
            invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? ids.nameError : undefined}
            data-testid="contact-name"
          />
          <FieldError id={ids.nameError} testId="contact-name-error">
            {errors.name?.message && t(errors.name.message)}
          </FieldError>
        </div>
        <Controller
          control={form.control}
          name="phone"
          render={({ field }) => (
            <UkPhoneField
              label={t('Phone Number')}
              value={field.value}
              onChange={field.onChange}
              error={errors.phone?.message}
              testId="contact-phone"
            />
          )}
        />
        <div className="lws-field">
          <Label htmlFor={ids.relation}>{t('Relation')}</Label>
          <Input
            {...form.register('relation')}
            id={ids.relation}
            placeholder={t('e.g. Partner, Parent, Friend')}
            invalid={Boolean(errors.relation)}
            aria-describedby={errors.relation ? ids.relationError : undefined}
            data-testid="contact-relation"
          />
          <FieldError id={ids.relationError} testId="contact-relation-error">
            {errors.relation?.message && t(errors.relation.message)}
          </FieldError>
        </div>
        <div className="lws-dialog__footer">
          <Button variant="outline" disabled={saving} onClick={onClose} data-testid="contact-cancel">
            {t('Cancel')}
          </Button>
          <Button type="submit" busy={saving} data-testid="contact-save">
            {saving ? t('Saving...') : t('Save Contact')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
