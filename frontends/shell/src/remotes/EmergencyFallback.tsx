import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  api,
  formatTime,
  serverNow,
  useAuth,
  useT,
  useToast,
} from '@lws/fe-ui';

/**
 * The shell's own emergency action for a signed-in worker, shown while the worker screen
 * loads and when it could not be loaded: a remote that fails must never take the emergency button
 * away. It raises the emergency at once, as the worker screen's button does (no PIN, no
 * confirmation), and says when help was requested.
 */
export function EmergencyFallback() {
  const { user } = useAuth();
  const { toast } = useToast();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [requestedAt, setRequestedAt] = useState<Date | null>(null);
  if (user?.role !== 'worker') return null;

  const request = async () => {
    setBusy(true);
    try {
      await api.post('/api/emergency-call', { userId: user.id, emergency: true });
      setRequestedAt(serverNow());
    } catch (e) {
      console.error('Requesting emergency assistance failed', e);
      toast({
        title: t('Failed to request emergency assistance'),
        message: t('Please try again, or call for help by phone.'),
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="lws-emergency" data-testid="shell-emergency">
      <CardHeader>
        <CardTitle>{t('Emergency')}</CardTitle>
        <CardDescription>{t('Use only if you need help now.')}</CardDescription>
      </CardHeader>
      <CardContent>
        {requestedAt ? (
          <Alert variant="warning" data-testid="shell-emergency-sent">
            {t('Help requested at {{time}}. Your monitors and emergency contacts are being told. Stay where you are if you can.', {
              time: formatTime(requestedAt),
            })}
          </Alert>
        ) : null}
        <Button variant="destructive" size="lg" block busy={busy} onClick={() => void request()} data-testid="shell-emergency-button">
          {t('REQUEST EMERGENCY ASSISTANCE')}
        </Button>
      </CardContent>
    </Card>
  );
}
