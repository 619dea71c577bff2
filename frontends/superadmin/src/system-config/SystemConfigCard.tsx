import { useCallback, useEffect, useState } from 'react';
import { Alert, Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton, api } from '@lws/fe-ui';

const NUMBER_KEYS = ['EMERGENCY_NUMBER_1', 'EMERGENCY_NUMBER_2', 'EMERGENCY_NUMBER_3'] as const;

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; values: Map<string, string> };

function parseConfig(body: unknown): Map<string, string> {
  if (!Array.isArray(body)) throw new Error('Invalid response format from server');
  const values = new Map<string, string>();
  for (const item of body) {
    if (item && typeof item === 'object' && typeof item.key === 'string') {
      values.set(item.key, typeof item.value === 'string' ? item.value.trim() : '');
    }
  }
  return values;
}

/**
 * System Config (spec section 2): the emergency call settings, read-only. They come from the
 * deployment's configuration, so that nobody can change where a missed check-in is escalated from
 * a browser.
 */
export function SystemConfigCard() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  const reload = useCallback(async () => {
    try {
      setLoad({ state: 'ready', values: parseConfig(await api.get('/api/system-config')) });
    } catch (e) {
      console.error('Loading the system configuration failed', e);
      setLoad({ state: 'error' });
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const numbers = load.state === 'ready' ? NUMBER_KEYS.map((key) => ({ key, value: load.values.get(key) ?? '' })) : [];
  const timeout = load.state === 'ready' ? (load.values.get('EMERGENCY_CALL_TIMEOUT') ?? '') : '';

  return (
    <Card data-testid="system-config">
      <CardHeader>
        <CardTitle>Emergency Call Settings</CardTitle>
        <CardDescription>Who is called when a missed check-in or an emergency is escalated, and how long each call rings.</CardDescription>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <div role="status" aria-label="Loading call settings">
            <Skeleton height="6rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" data-testid="system-config-error">
            Error loading call flow settings.
          </Alert>
        ) : (
          <>
            {numbers.every((n) => !n.value) ? (
              <Alert variant="warning" title="No emergency number configured" data-testid="system-config-no-number">
                Escalations cannot call an emergency number until one is configured.
              </Alert>
            ) : null}
            <dl className="lws-info-list" data-testid="system-config-values">
              {numbers.map(({ key, value }, i) => (
                <div key={key} className="lws-contents">
                  <dt>Emergency number {i + 1}</dt>
                  <dd data-testid={`config-${key}`}>{value || 'Not set'}</dd>
                </div>
              ))}
              <dt>Call timeout</dt>
              <dd data-testid="config-EMERGENCY_CALL_TIMEOUT">{/^\d+$/.test(timeout) ? `${timeout} seconds` : 'Not set'}</dd>
            </dl>
            <p className="lws-field-hint" data-testid="system-config-note">
              These settings are read-only. They come from the deployment configuration; the database config is no longer used. A system
              administrator must be contacted to change the emergency number.
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
