import { useId, useState, type FormEvent } from 'react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, FieldError, Input, Label, api, failureMessage, formatDateTime, useToast } from '@lws/fe-ui';

/** An `<input type="datetime-local">` value (local time, minutes) for an instant. */
function localValue(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}:${p(at.getMinutes())}`;
}

/**
 * An admin away (issue 12): until when, so their deputies are told of their teams' alarms in their
 * place; or back now. The server checks the time (future, at most 90 days ahead).
 */
export function AwayCard({ userId, awayUntil, onChanged }: { userId: number; awayUntil: string | null; onChanged: () => Promise<unknown> }) {
  const { toast } = useToast();
  const [until, setUntil] = useState(() => localValue(new Date(Date.now() + 24 * 3600_000)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const errorId = useId();

  const send = async (value: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/api/users/${userId}/away`, { until: value });
      toast({ title: value ? 'Away set' : 'Welcome back', message: value ? 'Your deputies are told of your teams\u2019 alarms until then.' : 'You are told of your teams\u2019 alarms again.' });
      await onChanged();
    } catch (e) {
      setError(failureMessage(e, 'That did not save. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(until);
    if (Number.isNaN(at.getTime())) {
      setError('Choose a date and time');
      return;
    }
    void send(at.toISOString());
  };

  return (
    <Card data-testid="away-card">
      <CardHeader>
        <CardTitle>Away</CardTitle>
        <CardDescription>While you are away, your deputy is told of your teams&apos; alarms in your place.</CardDescription>
      </CardHeader>
      <CardContent>
        {awayUntil ? (
          <div className="lws-inline-form">
            <p data-testid="away-status">Away until {formatDateTime(awayUntil, awayUntil)}</p>
            <Button variant="outline" busy={busy} onClick={() => void send(null)} data-testid="away-back">
              I&apos;m back
            </Button>
          </div>
        ) : (
          <form className="lws-inline-form" onSubmit={onSubmit}>
            <Label htmlFor={inputId}>Away until</Label>
            <Input
              id={inputId}
              type="datetime-local"
              value={until}
              onChange={(e) => setUntil(e.target.value)}
              aria-describedby={error ? errorId : undefined}
              invalid={!!error}
              data-testid="away-until"
            />
            <Button type="submit" busy={busy} data-testid="away-set">
              Set away
            </Button>
          </form>
        )}
        <FieldError id={errorId}>{error}</FieldError>
      </CardContent>
    </Card>
  );
}
