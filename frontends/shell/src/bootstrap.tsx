import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { hasHint, SIGNED_IN_HINT } from '@lws/fe-ui';
import { takeEarlySessionCheck } from './early-requests';
import { registerServiceWorker } from './offline/register-service-worker';
import { preloadFirstRemote } from './remotes/remote-registry';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

preloadFirstRemote(location.pathname, hasHint(SIGNED_IN_HINT));
const root = createRoot(container);
// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the page in one long task while the whole tree renders.
startTransition(() => {
  root.render(
    <StrictMode>
      <App firstSessionCheck={takeEarlySessionCheck()} />
    </StrictMode>,
  );
});

registerServiceWorker();
