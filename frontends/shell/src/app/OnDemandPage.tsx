import type { ComponentType } from 'react';
import { Button, Card, CardDescription, CardFooter, CardHeader, CardTitle, PageStatus, useT } from '@lws/fe-ui';
import type { OnDemand } from './on-demand';
import { useLoaded } from './use-loaded';

export interface OnDemandPageProps {
  page: OnDemand<ComponentType>;
  /** What the failure says could not be loaded ("login page"), already in the user's language. */
  name: string;
  testId: string;
  /** The page is the whole screen (no layout around it): the failure is then the page's main landmark. */
  standalone?: boolean;
}

/** A page loaded on first need: 'Loading...' until it is there, and a Retry if it cannot be fetched (never a blank app). */
export function OnDemandPage({ page, name, testId, standalone = false }: OnDemandPageProps) {
  const t = useT();
  const loaded = useLoaded(page.loaded, page.load);
  const Page = loaded.value;
  if (Page) return <Page />;
  if (!loaded.error) return <PageStatus text={t('Loading...')} />;
  const failure = (
    <Card className="lws-remote-unavailable" role="alert" data-testid={testId}>
      <CardHeader>
        <CardTitle>{t('Cannot load the {{name}}', { name })}</CardTitle>
        <CardDescription>{t('Check your connection and try again.')}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button onClick={loaded.retry} data-testid={`${testId}-retry`}>
          {t('Retry')}
        </Button>
      </CardFooter>
    </Card>
  );
  return standalone ? <main className="lws-auth-screen">{failure}</main> : failure;
}
