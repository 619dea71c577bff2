import { useEffect, useRef } from 'react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, formatTime as time, useT } from '@lws/fe-ui';
import { AlarmMessagesCard } from '../messages/AlarmMessagesCard';
import type { Translate } from '../shift/interval-text';
import type { OwnEmergency } from './useOwnEmergency';

function summary(e: OwnEmergency, t: Translate): string {
  if (e.safeAt) return t("You said you're safe. A monitor will confirm and close this.");
  if (e.acknowledgedByName) return t('{{name}} is dealing with it. Stay where you are if you can.', { name: e.acknowledgedByName });
  return t('Your monitors are being alerted. Stay where you are if you can and wait for help.');
}

/**
 * From the moment the worker raises an emergency until a monitor resolves it, the top of
 * their screen says when help was requested, what has happened since and who is dealing with it,
 * all from the server (their alarm on the live stream), and below it the messages with the monitors.
 * "I'm safe now" asks for the PIN.
 */
export function EmergencyScreen({ emergency, userId, onSafe }: { emergency: OwnEmergency; userId: number; onSafe(): void }) {
  const t = useT();
  const top = useRef<HTMLDivElement>(null);
  // A new emergency is brought into view and focused (the worker may have scrolled to the button).
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
    top.current?.focus({ preventScroll: true });
  }, [emergency.id]);

  return (
    <>
      <Card className="lws-emergency-screen" data-testid="emergency-screen" data-state={emergency.safeAt ? 'safe' : emergency.state}>
        <CardHeader>
          <div ref={top} tabIndex={-1} className="lws-emergency-screen__top">
            <CardTitle>{t('Help requested at {{time}}', { time: time(emergency.openedAt) })}</CardTitle>
          </div>
          <CardDescription data-testid="emergency-screen-summary">{summary(emergency, t)}</CardDescription>
        </CardHeader>
        <CardContent>
          <ol className="lws-emergency-screen__updates" aria-live="polite" data-testid="emergency-updates">
            {emergency.updates.map((u, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end; two lines may share a time.
              <li key={`${u.at}-${i}`}>
                <time dateTime={u.at}>{time(u.at)}</time> {t(u.text, u.name ? { name: u.name } : {})}
              </li>
            ))}
          </ol>
          {emergency.safeAt ? null : (
            <Button variant="outline" block onClick={onSafe} data-testid="emergency-safe-button">
              {t("I'm safe now — cancel")}
            </Button>
          )}
        </CardContent>
      </Card>
      {/* After a cancel with the duress PIN the server gives no thread; after the real PIN it still
        would. Shown after neither, the screen of a worker under threat looks like anyone's. */}
      {emergency.safeAt ? null : <AlarmMessagesCard userId={userId} kind="emergency" />}
    </>
  );
}
