import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Label,
  Textarea,
  api,
  failureField,
  failureMessage,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { MEDICAL_INFO_MAX_LENGTH, medicalInfoSchema, type MedicalInfoForm } from '@lws/schemas';

export interface MedicalInfoCardProps {
  userId: number;
  /** The saved text; the card is re-mounted when it changes, so the field starts from it. */
  medicalInfo: string;
  onSaved(): Promise<unknown>;
}

export function MedicalInfoCard({ userId, medicalInfo, onSaved }: MedicalInfoCardProps) {
  const { toast } = useToast();
  const t = useT();
  const form = useForm<MedicalInfoForm, unknown, z.output<typeof medicalInfoSchema>>({
    resolver: zodResolver(medicalInfoSchema),
    defaultValues: { medicalInfo },
  });
  const { errors, isSubmitting: saving } = form.formState;
  const id = useId();
  const hintId = useId();
  const errorId = useId();

  const onSubmit = form.handleSubmit(async (body) => {
    try {
      await api.patch(`/api/users/${userId}`, body);
      toast({ title: t('Medical information updated'), message: t('Responders will see what you saved.') });
      await onSaved().catch((e: unknown) => console.error('Reloading the profile failed', e));
    } catch (e) {
      if (failureField(e) === 'medicalInfo') form.setError('medicalInfo', { message: failureMessage(e, '') });
      toast({
        title: t('Update failed'),
        message: t(failureMessage(e, msg('Your medical information could not be saved. Please try again.'))),
        type: 'error',
      });
    }
  });

  return (
    <Card data-testid="profile-medical">
      <CardHeader>
        <CardTitle>{t('Medical Information')}</CardTitle>
        <CardDescription>{t('Anything responders should know in an emergency.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('Medical information')}>
          <div className="lws-field">
            <Label htmlFor={id}>{t('Medical Information')}</Label>
            <Textarea
              {...form.register('medicalInfo')}
              id={id}
              maxLength={MEDICAL_INFO_MAX_LENGTH}
              placeholder={t('Conditions, allergies, medication, blood type...')}
              invalid={Boolean(errors.medicalInfo)}
              aria-describedby={errors.medicalInfo ? `${hintId} ${errorId}` : hintId}
              data-testid="medical-info-input"
            />
            <p id={hintId} className="lws-field-hint">
              {t('Free text, up to {{max}} characters.', { max: MEDICAL_INFO_MAX_LENGTH })}
            </p>
            <FieldError id={errorId} testId="medical-info-error">
              {errors.medicalInfo?.message && t(errors.medicalInfo.message)}
            </FieldError>
          </div>
          <div className="lws-actions">
            <Button type="submit" busy={saving} data-testid="medical-info-save">
              {saving ? t('Saving...') : t('Save Medical Information')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
