import { useQuery } from '@tanstack/react-query';
import { Alert, Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton, api, loadOf, useT } from '@lws/fe-ui';

const NUMBER_KEYS = ['EMERGENCY_NUMBER_1', 'EMERGENCY_NUMBER_2', 'EMERGENCY_NUMBER_3'] as const;

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
  const t = useT();
  const query = useQuery({
    queryKey: ['system-config'],
    queryFn: async ({ signal }) => parseConfig(await api.get('/api/system-config', { signal })),
  });
  const load = loadOf(query);

  const values = load.state === 'ready' ? load.data : null;
  const numbers = values ? NUMBER_KEYS.map((key) => ({ key, value: values.get(key) ?? '' })) : [];
  const timeout = values?.get('EMERGENCY_CALL_TIMEOUT') ?? '';

  return (
    <Card data-testid="system-config">
      <CardHeader>
        <CardTitle>{t('Emergency Call Settings')}</CardTitle>
        <CardDescription>
          {t('Who is called when a missed check-in or an emergency is escalated, and how long each call rings.')}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <div role="status" aria-label={t('Loading call settings')}>
            <Skeleton height="6rem" />
          </div>
        ) : load.state === 'error' ? (
          <Alert variant="error" data-testid="system-config-error">
            {t('Error loading call flow settings.')}
          </Alert>
        ) : (
          <>
            {numbers.every((n) => !n.value) ? (
              <Alert variant="warning" title={t('No emergency number configured')} data-testid="system-config-no-number">
                {t('Escalations cannot call an emergency number until one is configured.')}
              </Alert>
            ) : null}
            <dl className="lws-info-list" data-testid="system-config-values">
              {numbers.map(({ key, value }, i) => (
                <div key={key} className="lws-contents">
                  <dt>{t('Emergency number {{number}}', { number: i + 1 })}</dt>
                  <dd data-testid={`config-${key}`}>{value || t('Not set')}</dd>
                </div>
              ))}
              <dt>{t('Call timeout')}</dt>
              <dd data-testid="config-EMERGENCY_CALL_TIMEOUT">
                {/^\d+$/.test(timeout) ? t('{{seconds}} seconds', { seconds: timeout }) : t('Not set')}
              </dd>
            </dl>
            <p className="lws-field-hint" data-testid="system-config-note">
              {t(
                'These settings are read-only. They come from the deployment configuration; the database config is no longer used. A system administrator must be contacted to change the emergency number.',
              )}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
