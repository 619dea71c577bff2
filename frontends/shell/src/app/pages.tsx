import { lazy, Suspense } from 'react';
import { PageStatus } from '@lws/fe-ui';

// The profile loads on its own (with its forms and their validation library), so a worker who
// opens their screen never downloads it. The login page is part of the shell: it is the first
// screen of most visits, and waiting for a chunk of its own would delay it.
const ProfilePage = lazy(() => import('../profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));

const loading = <PageStatus text="Loading..." />;

export function ProfileRoute() {
  return (
    <Suspense fallback={loading}>
      <ProfilePage />
    </Suspense>
  );
}
