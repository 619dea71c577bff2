import { PageStatus, SignedInCard, useAuth, useDocumentTitle } from '@lws/fe-ui';

/** The worker's home. For now it shows who is signed in; shifts and check-ins arrive in later issues. */
export default function WorkerApp() {
  const { user, loading } = useAuth();
  useDocumentTitle('Check-In');
  return (
    <div className="lws-page" data-testid="remote-worker">
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user ? (
        <>
          <header>
            <h1 className="lws-page__title">Check-In</h1>
            <p className="lws-page__subtitle">Your shift and check-ins will appear here.</p>
          </header>
          <SignedInCard user={user} />
        </>
      ) : (
        <p>Please log in to access your worker dashboard</p>
      )}
    </div>
  );
}
