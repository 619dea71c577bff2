import { useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import {
  Button,
  Card,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  isRole,
  PageStatus,
  roleHome,
  msg,
  useAuth,
  useT,
  type Role,
} from '@lws/fe-ui';
import { LoginRoute } from '../login/LoginRoute';

/** In English, marked with msg(): shown through t(). */
export const LOADING_TEXT = msg('Loading...');
export const REDIRECTING_TEXT = msg('Redirecting...');

/** Where a signed-in user is sent when a page is not theirs; an unknown role has no page. */
function ownPage(role: string): string {
  return isRole(role) ? roleHome(role) : '/login';
}

/**
 * The session check failed for a reason other than "not logged in" (server
 * down, network lost). Sending the user to /login would be misleading: their
 * session may be fine, so say what happened and offer to check again.
 */
function SessionCheckFailed() {
  const { refresh } = useAuth();
  const t = useT();
  const [checking, setChecking] = useState(false);
  return (
    <div className="lws-main">
      <Card className="lws-remote-unavailable" role="alert" data-testid="session-error">
        <CardHeader>
          <CardTitle>{t('Cannot reach the server')}</CardTitle>
          <CardDescription>{t('We could not check your login. Check your connection and try again.')}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button
            busy={checking}
            data-testid="session-retry"
            onClick={async () => {
              setChecking(true);
              await refresh();
              setChecking(false);
            }}
          >
            {t('Retry')}
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}

/**
 * The route guard: no session goes to /login, a role outside `roles` goes to
 * the user's own page. Without `roles` any signed-in user may enter.
 */
export function RequireAuth({ roles, children }: { roles?: readonly Role[]; children: ReactNode }) {
  const { user, loading, error } = useAuth();
  const t = useT();
  if (loading) return <PageStatus text={t(LOADING_TEXT)} />;
  if (!user && error) return <SessionCheckFailed />;
  if (!user) return <Navigate to="/login" replace />;
  if (roles && !roles.includes(user.role as Role)) return <Navigate to={ownPage(user.role)} replace />;
  return <>{children}</>;
}

/**
 * /admin and /superadmin: 'Loading...' while the session check runs, the login
 * screen in place when signed out, the user's own page for any other role.
 */
export function DashboardGate({ allow, children }: { allow: readonly Role[]; children: ReactNode }) {
  const { user, loading, error } = useAuth();
  const t = useT();
  if (loading) return <PageStatus text={t(LOADING_TEXT)} />;
  if (!user && error) return <SessionCheckFailed />;
  if (!user) return <LoginRoute />;
  if (!allow.includes(user.role as Role)) return <Navigate to={ownPage(user.role)} replace />;
  return <>{children}</>;
}

/** `/` shows only the loading text, then sends everyone to their home (or to /login). */
export function RootRedirect() {
  const { user, loading, error } = useAuth();
  const t = useT();
  if (loading) return <PageStatus text={t(LOADING_TEXT)} />;
  if (!user && error) return <SessionCheckFailed />;
  if (!user) return <Navigate to="/login" replace />;
  return <Navigate to={ownPage(user.role)} replace />;
}

export function TestRemindersRedirect() {
  const { user, loading } = useAuth();
  const t = useT();
  const target = user?.role === 'superadmin' ? '/superadmin' : user?.role === 'admin' ? '/admin' : '/worker';
  return (
    <>
      <PageStatus text={t(REDIRECTING_TEXT)} />
      {loading ? null : <Navigate to={target} replace />}
    </>
  );
}
