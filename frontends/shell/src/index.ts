import '@lws/fe-ui/styles.css';
import { startEarlyRequests } from './early-requests';

startEarlyRequests();

// The async boundary lets Module Federation set up the shared singletons
// (react, the query library, @lws/fe-ui) before any of them is first used.
import('./bootstrap').catch((error: unknown) => {
  console.error('The application failed to start', error);
  const root = document.getElementById('root');
  if (root) root.textContent = 'The application could not be loaded. Check your connection and reload the page.';
});
