import { Alert, PageStatus, SignedInCard, useAuth, useDocumentTitle } from '@lws/fe-ui';

const MONITORS = ['admin', 'superadmin'];

/** The admin dashboard. For now it shows who is signed in; the worker lists arrive in later issues. */
export default function AdminApp() {
  const { user, loading } = useAuth();
  useDocumentTitle('Admin Dashboard');
  return (
    <div className="lws-page" data-testid="remote-admin">
      <h1 className="lws-page__title">Admin Dashboard</h1>
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user && MONITORS.includes(user.role) ? (
        <SignedInCard user={user} />
      ) : (
        <Alert variant="error">You don't have permission to access the admin dashboard</Alert>
      )}
    </div>
  );
}
