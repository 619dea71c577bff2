import { useState } from 'react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, api, useToast } from '@lws/fe-ui';

/**
 * 'Emergency Options': raises the emergency at once (the server publishes it before answering);
 * no PIN and no confirmation stand between a worker in danger and help. Shown whether or not the
 * worker is on shift.
 */
export function EmergencyCard({ userId }: { userId: number }) {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);

  const request = async () => {
    setBusy(true);
    try {
      await api.post('/api/emergency-call', { userId, emergency: true });
      toast({
        title: 'Emergency assistance requested',
        message: 'Your emergency contacts are being notified. Stay where you are if possible and wait for help to arrive.',
        type: 'warning',
      });
    } catch (e) {
      console.error('Requesting emergency assistance failed', e);
      toast({
        title: 'Failed to request emergency assistance',
        message: 'Please try again or use alternative means to get help immediately.',
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="lws-emergency" data-testid="emergency-card">
      <CardHeader>
        <CardTitle>Emergency Options</CardTitle>
        <CardDescription>Use only if you need help now.</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" size="lg" block busy={busy} onClick={() => void request()} data-testid="emergency-button">
          REQUEST EMERGENCY ASSISTANCE
        </Button>
      </CardContent>
    </Card>
  );
}
