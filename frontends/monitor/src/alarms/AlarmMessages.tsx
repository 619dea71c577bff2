import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ALARM_MESSAGE_MAX, alarmMessageSchema, type AlarmMessageForm } from '@lws/schemas';
import { ApiError, Badge, Button, FieldError, Input, Label, failureField, failureMessage, msg, useT, useToast } from '@lws/fe-ui';
import { sendAlarmMessage, type Alarm, type AlarmMessage } from '@lws/fe-ui/alarms';
import { requestTime } from '../checkin-requests/checkin-requests';

/** How many of the latest messages a row shows until the monitor asks for the earlier ones: rows stay short. */
export const LATEST_MESSAGES_SHOWN = 3;

function MessageLine({ message, alarm, reference }: { message: AlarmMessage; alarm: Alarm; reference: Date }) {
  const t = useT();
  const time = requestTime(message.at, reference);
  return (
    <li className="lws-alarm-message" data-testid="alarm-message" data-from={message.from} data-message-id={message.id}>
      <div className="lws-alarm-message__meta">
        {message.from === 'worker' ? (
          <>
            <Badge variant="warning" data-testid="alarm-message-worker">
              {t('Worker')}
            </Badge>{' '}
            <strong>{message.byName ?? alarm.workerName}</strong>
          </>
        ) : (
          <strong>{message.byName ?? t('a monitor')}</strong>
        )}{' '}
        <time dateTime={message.at} className="lws-muted">
          {time}
        </time>
      </div>
      <p className="lws-alarm-message__text" data-testid="alarm-message-body">
        {message.text}
      </p>
      {message.from === 'monitor' && message.seenAt ? (
        <div className="lws-muted" data-testid="alarm-message-seen">
          {t('Seen at {{time}}', { time: requestTime(message.seenAt, reference) })}
        </div>
      ) : null}
    </li>
  );
}

/** The monitor's message to the worker: the gateway's own schema checks it, so the words under the field are the server's. */
function MessageForm({ alarm, onSent }: { alarm: Alarm; onSent(alarm: Alarm | null): void }) {
  const t = useT();
  const { toast } = useToast();
  const inputId = useId();
  const errorId = useId();
  const form = useForm<AlarmMessageForm, unknown, z.output<typeof alarmMessageSchema>>({
    resolver: zodResolver(alarmMessageSchema),
    defaultValues: { text: '' },
  });
  const { errors, isSubmitting: busy } = form.formState;

  const submit = form.handleSubmit(async ({ text }) => {
    try {
      const sent = await sendAlarmMessage(alarm.id, text);
      form.reset({ text: '' });
      onSent(sent);
    } catch (e) {
      console.error('Sending the message to the worker failed', e);
      if (e instanceof ApiError && e.status === 400 && (failureField(e) ?? 'text') === 'text') {
        form.setError('text', { message: t(failureMessage(e, msg('This value is not valid'))) });
      } else if (e instanceof ApiError && e.status === 409) {
        // Resolved meanwhile, or a duress alarm: the server says which, and the row is read again.
        toast({
          title: t('Message not sent'),
          message: t(failureMessage(e, msg('The message could not be sent. Please try again.'))),
          type: 'warning',
        });
        onSent(null);
      } else {
        toast({
          title: t('Message not sent'),
          message: t(failureMessage(e, msg('The message could not be sent. Please try again.'))),
          type: 'error',
        });
      }
    }
  });

  return (
    <form
      className="lws-alarm-message-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label={t('Message to {{name}}', { name: alarm.workerName })}
    >
      <Label htmlFor={inputId}>{t('Message to the worker')}</Label>
      <div className="lws-alarm-message-form__row">
        <Input
          {...form.register('text')}
          id={inputId}
          maxLength={ALARM_MESSAGE_MAX}
          autoComplete="off"
          invalid={Boolean(errors.text)}
          aria-describedby={errors.text ? errorId : undefined}
          readOnly={busy}
          data-testid="alarm-message-text"
        />
        <Button
          type="submit"
          size="sm"
          busy={busy}
          aria-label={t('Send message to {{name}}', { name: alarm.workerName })}
          data-testid="alarm-message-send"
        >
          {t('Send')}
        </Button>
      </div>
      <FieldError id={errorId} testId="alarm-message-error">
        {errors.text?.message ? t(errors.text.message) : null}
      </FieldError>
    </form>
  );
}

/**
 * The messages between the monitors and the worker during an alarm, and the monitor's form to
 * write one. A duress alarm has no form: whoever holds the worker's phone would read the message.
 */
export function AlarmMessages({
  alarm,
  reference,
  onSent,
}: {
  alarm: Alarm;
  /** Now, by the server's clock: today's times are written without their date. */
  reference: Date;
  onSent(alarm: Alarm | null): void;
}) {
  const t = useT();
  const [all, setAll] = useState(false);
  const { messages } = alarm;
  const earlier = all ? 0 : Math.max(0, messages.length - LATEST_MESSAGES_SHOWN);
  return (
    <div className="lws-alarm-messages" data-testid="alarm-messages">
      {messages.length === 0 ? (
        <p className="lws-muted" data-testid="alarm-messages-empty">
          {t('No messages yet')}
        </p>
      ) : (
        <>
          {messages.length > LATEST_MESSAGES_SHOWN ? (
            <Button size="sm" variant="ghost" onClick={() => setAll(!all)} aria-expanded={all} data-testid="alarm-messages-toggle">
              {all ? t('Show the latest only') : t('Show earlier messages ({{number}})', { number: earlier })}
            </Button>
          ) : null}
          <ol className="lws-alarm-messages__list">
            {messages.slice(earlier).map((message) => (
              <MessageLine key={message.id} message={message} alarm={alarm} reference={reference} />
            ))}
          </ol>
        </>
      )}
      {alarm.duress ? (
        <p className="lws-muted" data-testid="alarm-messages-duress">
          {t('No messages to the worker during a duress alarm: whoever holds their phone would read them.')}
        </p>
      ) : (
        <MessageForm alarm={alarm} onSent={onSent} />
      )}
    </div>
  );
}
