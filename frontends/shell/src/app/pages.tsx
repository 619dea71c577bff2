import { lazy, Suspense } from 'react';
import { PageStatus } from '@lws/fe-ui';

// The forms' pages load on their own (with their form and validation libraries), so a worker who
// opens their screen signed in never downloads them.
const LoginPage = lazy(() => import('../login/LoginPage').then((m) => ({ default: m.LoginPage })));
const ProfilePage = lazy(() => import('../profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));

const loading = <PageStatus text="Loading..." />;

export function LoginRoute() {
  return (
    <Suspense fallback={loading}>
      <LoginPage />
    </Suspense>
  );
}

export function ProfileRoute() {
  return (
    <Suspense fallback={loading}>
      <ProfilePage />
    </Suspense>
  );
}
