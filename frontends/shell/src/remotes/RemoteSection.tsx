import { Component, useEffect, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, Card, CardDescription, CardFooter, CardHeader, CardTitle, PageStatus } from '@lws/fe-ui';
import { EmergencyFallback } from './EmergencyFallback';
import { loadedRemote, loadRemoteComponent, markRemoteFailed } from './remote-registry';
import type { RemoteName } from './runtime-config';

interface BoundaryProps {
  name: RemoteName;
  onRetry(): void;
  children: ReactNode;
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
        <Card className="lws-remote-unavailable" role="alert" data-testid="remote-unavailable" data-remote={this.props.name}>
          <CardHeader>
            <CardTitle>Section unavailable</CardTitle>
            <CardDescription>This section could not be loaded. Check your connection and try again.</CardDescription>
          </CardHeader>
          <CardFooter>
            <Button onClick={this.props.onRetry} data-testid="remote-retry">
              Retry
            </Button>
          </CardFooter>
        </Card>
      </>
    );
  }
}

/**
 * The remote's component once loaded, the loading state until then. Not a Suspense boundary:
 * React holds back content that resolves within 300 ms of a Suspense fallback, which put the
 * worker's screen on the page 0.3 s after it had arrived. A load that fails is thrown here, for
 * the error boundary around to show.
 */
function RemoteLoader({ name }: { name: RemoteName }) {
  const [state, setState] = useState<{ component?: ComponentType; error?: unknown }>(() => ({ component: loadedRemote(name) }));
  useEffect(() => {
    if (state.component) return;
    let current = true;
    loadRemoteComponent(name).then(
      (component) => current && setState({ component }),
      (error: unknown) => current && setState({ error }),
    );
    return () => {
      current = false;
    };
  }, [name, state.component]);
  if (state.error) throw state.error;
  const Remote = state.component;
  if (Remote) return <Remote />;
  return (
    <>
      {name === 'worker' ? <EmergencyFallback /> : null}
      <PageStatus text="Loading..." testId="remote-loading" />
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
