import { useState } from 'react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, useT } from '@lws/fe-ui';

/**
 * 'Emergency Options': raises the emergency at once (the server publishes it before answering);
 * no PIN and no confirmation stand between a worker in danger and help. Shown whether or not the
 * worker is on shift. `onRequest` raises it and tells the worker how it went.
 */
export function EmergencyCard({ onRequest }: { onRequest(): Promise<unknown> }) {
  const t = useT();
  const [busy, setBusy] = useState(false);

  const request = async () => {
    setBusy(true);
    try {
      await onRequest();
    } finally {
      setBusy(false);
    }
  };

  return (
    // lws-keep-clear: no overlay (the cookie banner) may cover the emergency action.
    <Card className="lws-emergency lws-keep-clear" data-testid="emergency-card">
      <CardHeader>
        <CardTitle>{t('Emergency Options')}</CardTitle>
        <CardDescription>{t('Use only if you need help now.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" size="lg" block busy={busy} onClick={() => void request()} data-testid="emergency-button">
          {t('REQUEST EMERGENCY ASSISTANCE')}
        </Button>
      </CardContent>
    </Card>
  );
}
