import { useEffect, useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Switch, useToast } from '@lws/fe-ui';
import { PushSetupError, enablePushNotifications, existingSubscription, pushSupported, type PushFailure } from './push-subscription';

const UNSUPPORTED_TEXT = 'Push notifications are not supported in this browser.';

/** Spec section 8: one toast per step that can fail. */
const FAILURES: Record<PushFailure, { title: string; message: string }> = {
  unsupported: { title: 'Not Supported', message: UNSUPPORTED_TEXT },
  permission: { title: 'Permission Denied', message: 'Allow notifications for this site in your browser settings to get check-in reminders.' },
  registration: { title: 'Registration Failed', message: 'The notification service could not be started in this browser. Please try again.' },
  subscription: { title: 'Subscription Failed', message: 'This browser could not subscribe to push notifications. Please try again.' },
  setup: { title: 'Setup Failed', message: 'Notifications could not be set up with the server. Please try again.' },
};

/**
 * The check-in notifications switch: on asks for permission, registers the service worker,
 * subscribes to push and gives the subscription to the server. Off only changes what this switch
 * shows (spec section 4); the note says how to really stop them.
 */
export function NotificationsCard() {
  const { toast } = useToast();
  const noteId = useId();
  const supported = pushSupported();
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void existingSubscription().then((subscribed) => {
      if (live && subscribed) setOn(true);
    });
    return () => {
      live = false;
    };
  }, []);

  const toggle = async (next: boolean) => {
    if (!next) {
      setOn(false);
      return;
    }
    setBusy(true);
    try {
      await enablePushNotifications();
      setOn(true);
      toast({ title: 'Notifications enabled', message: 'You will be reminded on this device when a check-in is due.' });
    } catch (e) {
      console.error('Turning on notifications failed', e);
      const step = e instanceof PushSetupError ? e.step : 'setup';
      toast({ ...FAILURES[step], type: 'error' });
      setOn(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="profile-notifications">
      <CardHeader>
        <CardTitle>Check-in Notifications</CardTitle>
        <CardDescription>Reminders on this device when a check-in is due.</CardDescription>
      </CardHeader>
      <CardContent>
        <Switch
          label="Check-in notifications"
          checked={on}
          disabled={!supported || busy}
          aria-describedby={noteId}
          aria-busy={busy || undefined}
          onChange={(event) => void toggle(event.target.checked)}
          data-testid="notifications-switch"
        />
        <p id={noteId} className="lws-field-hint" data-testid="notifications-note">
          {supported
            ? 'Turning this off here does not unsubscribe this device: to stop reminders, block notifications for this site in your browser settings.'
            : UNSUPPORTED_TEXT}
        </p>
      </CardContent>
    </Card>
  );
}
