import '@lws/fe-ui/styles.css';
import { startEarlyRequests } from './early-requests';

startEarlyRequests();

// The async boundary lets Module Federation set up the shared singletons
// (react, the query library, @lws/fe-ui) before any of them is first used. It starts in a task of
// its own: on a slow phone the runtime's set-up and this module's, run in one, block the page for
// longer than a tap may wait (a long task, in Lighthouse's terms).
setTimeout(() => {
  import('./bootstrap').catch((error: unknown) => {
    console.error('The application failed to start', error);
    const root = document.getElementById('root');
    if (root) root.textContent = 'The application could not be loaded. Check your connection and reload the page.';
  });
}, 0);
