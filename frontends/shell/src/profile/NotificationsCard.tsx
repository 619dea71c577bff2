import { useId } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Switch } from '@lws/fe-ui';

/** The check-in notifications switch. Push delivery is not built yet, so it is shown off and disabled rather than pretending. */
export function NotificationsCard() {
  const noteId = useId();
  return (
    <Card data-testid="profile-notifications">
      <CardHeader>
        <CardTitle>Check-in Notifications</CardTitle>
        <CardDescription>Reminders on this device when a check-in is due.</CardDescription>
      </CardHeader>
      <CardContent>
        <Switch label="Check-in notifications" checked={false} disabled aria-describedby={noteId} readOnly data-testid="notifications-switch" />
        <p id={noteId} className="lws-field-hint" data-testid="notifications-note">
          Push notifications are not available yet. This switch will turn them on once they are.
        </p>
      </CardContent>
    </Card>
  );
}
