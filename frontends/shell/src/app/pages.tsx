import type { ComponentType } from 'react';
import { useT } from '@lws/fe-ui';
import { OnDemandPage } from './OnDemandPage';
import { onDemand } from './on-demand';

// The profile loads on its own (with its forms and their validation library), so a worker who
// opens their screen never downloads it. A failed load offers Retry instead of blanking the app.
const profilePage = onDemand<ComponentType>('profile page', () =>
  import(/* webpackChunkName: "profile" */ '../profile/ProfilePage').then((m) => m.ProfilePage),
);

export function ProfileRoute() {
  const t = useT();
  return <OnDemandPage page={profilePage} name={t('profile page')} testId="profile-unavailable" />;
}
