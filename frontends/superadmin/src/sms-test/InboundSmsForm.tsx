import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button, FieldError, Input, Label, api, failureField, failureMessage, msg, useT } from '@lws/fe-ui';
import { inboundSmsSchema, type InboundSmsForm as InboundSmsFields } from '@lws/schemas';

type Sent = { reply: string | null } | null;

/**
 * Texts LWS's number from a phone through the test provider, exactly as Twilio delivers a text:
 * a worker replying to a reminder with their PIN checks in. Shows what LWS texted back.
 * The gateway's own schema checks the form, so the words under a field are the server's.
 */
export function InboundSmsForm() {
  const t = useT();
  const ids = { from: useId(), fromError: useId(), body: useId(), bodyError: useId(), error: useId() };
  const form = useForm<InboundSmsFields, unknown, z.output<typeof inboundSmsSchema>>({
    resolver: zodResolver(inboundSmsSchema),
    defaultValues: { from: '', body: '' },
  });
  const { errors, isSubmitting: busy } = form.formState;
  const [sent, setSent] = useState<Sent>(null);
  // A failure that names no field (the provider refused, the network) is shown under the form.
  const [failure, setFailure] = useState<string | null>(null);
  const filled = form.watch('from').trim() !== '' && form.watch('body').trim() !== '';

  const submit = form.handleSubmit(async (text) => {
    setFailure(null);
    setSent(null);
    try {
      const answer = await api.post<{ reply?: unknown }>('/api/test-provider/inbound-sms', text);
      setSent({ reply: typeof answer?.reply === 'string' ? answer.reply : null });
    } catch (e) {
      const field = failureField(e);
      const message = failureMessage(e, msg('The text could not be delivered.'));
      if (field === 'from' || field === 'body') form.setError(field, { message });
      else setFailure(message);
    }
  });

  return (
    <form
      className="lws-form"
      noValidate
      onSubmit={(e) => void submit(e)}
      aria-label={t('Text LWS as a phone')}
      data-testid="inbound-sms-form"
    >
      <h3 className="lws-section-title">{t('Text LWS as a phone')}</h3>
      <p className="lws-muted">{t('A worker replies to a reminder with their PIN, from their own phone number, to check in.')}</p>
      <div className="lws-field">
        <Label htmlFor={ids.from}>{t('From (phone number)')}</Label>
        <Input
          {...form.register('from')}
          id={ids.from}
          placeholder="+447700900123"
          invalid={Boolean(errors.from)}
          aria-describedby={errors.from ? ids.fromError : undefined}
          data-testid="inbound-sms-from"
        />
        <FieldError id={ids.fromError} testId="inbound-sms-from-error">
          {errors.from?.message && t(errors.from.message)}
        </FieldError>
      </div>
      <div className="lws-field">
        <Label htmlFor={ids.body}>{t('Message')}</Label>
        <Input
          {...form.register('body')}
          id={ids.body}
          placeholder="1234"
          invalid={Boolean(errors.body)}
          aria-describedby={errors.body ? ids.bodyError : undefined}
          data-testid="inbound-sms-body"
        />
        <FieldError id={ids.bodyError} testId="inbound-sms-body-error">
          {errors.body?.message && t(errors.body.message)}
        </FieldError>
      </div>
      <FieldError id={ids.error} testId="inbound-sms-error">
        {failure && t(failure)}
      </FieldError>
      <div className="lws-actions">
        <Button type="submit" busy={busy} disabled={!filled} data-testid="inbound-sms-send">
          {t('Send text')}
        </Button>
      </div>
      {sent ? (
        <p role="status" data-testid="inbound-sms-reply">
          {sent.reply ? t('LWS replied: {{reply}}', { reply: sent.reply }) : t('LWS sent no reply.')}
        </p>
      ) : null}
    </form>
  );
}
