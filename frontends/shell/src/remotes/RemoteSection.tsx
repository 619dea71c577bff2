import { Component, useState, type ErrorInfo, type ReactNode } from 'react';
import { Button, Card, CardDescription, CardFooter, CardHeader, CardTitle, PageStatus, useT } from '@lws/fe-ui';
import { useLoaded } from '../app/use-loaded';
import { EmergencyFallback } from './EmergencyFallback';
import { loadedRemote, loadRemoteComponent, markRemoteFailed } from './remote-registry';
import type { RemoteName } from './runtime-config';

interface BoundaryProps {
  name: RemoteName;
  onRetry(): void;
  children: ReactNode;
}

/** What a remote that failed shows in its place, with a Retry. */
function RemoteUnavailable({ name, onRetry }: { name: RemoteName; onRetry(): void }) {
  const t = useT();
  return (
    <Card className="lws-remote-unavailable" role="alert" data-testid="remote-unavailable" data-remote={name}>
      <CardHeader>
        <CardTitle>{t('Section unavailable')}</CardTitle>
        <CardDescription>{t('This section could not be loaded. Check your connection and try again.')}</CardDescription>
      </CardHeader>
      <CardFooter>
        <Button onClick={onRetry} data-testid="remote-retry">
          {t('Retry')}
        </Button>
      </CardFooter>
    </Card>
  );
}

/** Catches a remote that cannot be fetched or that crashes, so the page never goes blank. */
class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    markRemoteFailed(this.props.name);
    console.error(`Remote "${this.props.name}" is unavailable`, error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        {/* A worker keeps the emergency action whatever failed to load. */}
        {this.props.name === 'worker' ? <EmergencyFallback /> : null}
        <RemoteUnavailable name={this.props.name} onRetry={this.props.onRetry} />
      </>
    );
  }
}

/** The remote's component once loaded, the loading state until then; a load that fails is thrown for the error boundary around to show. */
function RemoteLoader({ name }: { name: RemoteName }) {
  const t = useT();
  const remote = useLoaded(
    () => loadedRemote(name),
    () => loadRemoteComponent(name),
  );
  if (remote.error) throw remote.error;
  const Remote = remote.value;
  if (Remote) return <Remote />;
  return (
    <>
      {name === 'worker' ? <EmergencyFallback /> : null}
      <PageStatus text={t('Loading...')} testId="remote-loading" />
    </>
  );
}

/** Loads a role remote's root component by its manifest, with a loading state and a retryable failure state. */
export function RemoteSection({ name }: { name: RemoteName }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <RemoteErrorBoundary key={attempt} name={name} onRetry={() => setAttempt((n) => n + 1)}>
      <RemoteLoader name={name} />
    </RemoteErrorBoundary>
  );
}
