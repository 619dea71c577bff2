import { useId, useState, type FormEvent } from 'react';
import { Button, FieldError, Input, Label, api, failureField, failureMessage } from '@lws/fe-ui';

type Sent = { reply: string | null } | null;

/**
 * Texts LWS's number from a phone through the test provider, exactly as Twilio delivers a text
 * (issue 13): a worker replying to a reminder with their PIN checks in. Shows what LWS texted back.
 */
export function InboundSmsForm() {
  const fromId = useId();
  const bodyId = useId();
  const errorId = useId();
  const [from, setFrom] = useState('');
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Sent>(null);
  const [error, setError] = useState<{ field: string | null; message: string } | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const answer = await api.post<{ reply?: unknown }>('/api/test-provider/inbound-sms', { from, body });
      setSent({ reply: typeof answer?.reply === 'string' ? answer.reply : null });
    } catch (e) {
      setError({ field: failureField(e) ?? null, message: failureMessage(e, 'The text could not be delivered.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="lws-form" noValidate onSubmit={(e) => void submit(e)} aria-label="Text LWS as a phone" data-testid="inbound-sms-form">
      <h3 className="lws-section-title">Text LWS as a phone</h3>
      <p className="lws-muted">A worker replies to a reminder with their PIN, from their own phone number, to check in.</p>
      <div className="lws-field">
        <Label htmlFor={fromId}>From (phone number)</Label>
        <Input
          id={fromId}
          value={from}
          onChange={(e) => setFrom(e.target.value)}
          placeholder="+447700900123"
          invalid={error?.field === 'from'}
          aria-describedby={error ? errorId : undefined}
          data-testid="inbound-sms-from"
        />
      </div>
      <div className="lws-field">
        <Label htmlFor={bodyId}>Message</Label>
        <Input
          id={bodyId}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          placeholder="1234"
          invalid={error?.field === 'body'}
          aria-describedby={error ? errorId : undefined}
          data-testid="inbound-sms-body"
        />
      </div>
      <FieldError id={errorId} testId="inbound-sms-error">
        {error?.message ?? null}
      </FieldError>
      <div className="lws-actions">
        <Button type="submit" busy={busy} disabled={!from.trim() || !body.trim()} data-testid="inbound-sms-send">
          Send text
        </Button>
      </div>
      {sent ? (
        <p role="status" data-testid="inbound-sms-reply">
          {sent.reply ? `LWS replied: ${sent.reply}` : 'LWS sent no reply.'}
        </p>
      ) : null}
    </form>
  );
}
