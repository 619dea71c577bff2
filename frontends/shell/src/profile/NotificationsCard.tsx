import { useEffect, useId, useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Switch, msg, useT, useToast } from '@lws/fe-ui';
import { PushSetupError, enablePushNotifications, existingSubscription, pushSupported, type PushFailure } from './push-subscription';

const UNSUPPORTED_TEXT = msg('Push notifications are not supported in this browser.');

/** Spec section 8: one toast per step that can fail (in English, shown through t()). */
const FAILURES: Record<PushFailure, { title: string; message: string }> = {
  unsupported: { title: msg('Not Supported'), message: UNSUPPORTED_TEXT },
  permission: {
    title: msg('Permission Denied'),
    message: msg('Allow notifications for this site in your browser settings to get check-in reminders.'),
  },
  registration: {
    title: msg('Registration Failed'),
    message: msg('The notification service could not be started in this browser. Please try again.'),
  },
  subscription: {
    title: msg('Subscription Failed'),
    message: msg('This browser could not subscribe to push notifications. Please try again.'),
  },
  setup: { title: msg('Setup Failed'), message: msg('Notifications could not be set up with the server. Please try again.') },
};

/**
 * The check-in notifications switch: on asks for permission, registers the service worker,
 * subscribes to push and gives the subscription to the server. Off only changes what this switch
 * shows (spec section 4); the note says how to really stop them.
 */
export function NotificationsCard() {
  const { toast } = useToast();
  const t = useT();
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
      toast({ title: t('Notifications enabled'), message: t('You will be reminded on this device when a check-in is due.') });
    } catch (e) {
      console.error('Turning on notifications failed', e);
      const step = e instanceof PushSetupError ? e.step : 'setup';
      const failure = FAILURES[step];
      toast({ title: t(failure.title), message: t(failure.message), type: 'error' });
      setOn(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="profile-notifications">
      <CardHeader>
        <CardTitle>{t('Check-in Notifications')}</CardTitle>
        <CardDescription>{t('Reminders on this device when a check-in is due.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Switch
          label={t('Check-in notifications')}
          checked={on}
          disabled={!supported || busy}
          aria-describedby={noteId}
          aria-busy={busy || undefined}
          onChange={(event) => void toggle(event.target.checked)}
          data-testid="notifications-switch"
        />
        <p id={noteId} className="lws-field-hint" data-testid="notifications-note">
          {supported
            ? t(
                'Turning this off here does not unsubscribe this device: to stop reminders, block notifications for this site in your browser settings.',
              )
            : t(UNSUPPORTED_TEXT)}
        </p>
      </CardContent>
    </Card>
  );
}
