import { Alert, PageStatus, SignedInCard, useAuth, useDocumentTitle } from '@lws/fe-ui';

/** The super admin dashboard. For now it shows who is signed in; tools and configuration arrive in later issues. */
export default function SuperadminApp() {
  const { user, loading } = useAuth();
  useDocumentTitle('Super Admin Dashboard');
  return (
    <div className="lws-page" data-testid="remote-superadmin">
      <h1 className="lws-page__title">Super Admin Dashboard</h1>
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user?.role === 'superadmin' ? (
        <SignedInCard user={user} />
      ) : (
        <Alert variant="error">You don't have permission to access the super admin dashboard</Alert>
      )}
    </div>
  );
}
