import type { ComponentType } from 'react';
import { OnDemandPage } from './OnDemandPage';
import { onDemand } from './on-demand';

// The profile loads on its own (with its forms and their validation library), so a worker who
// opens their screen never downloads it. A failed load offers Retry instead of blanking the app.
const profilePage = onDemand<ComponentType>('profile page', () => import(/* webpackChunkName: "profile" */ '../profile/ProfilePage').then((m) => m.ProfilePage));

export function ProfileRoute() {
  return <OnDemandPage page={profilePage} name="profile page" testId="profile-unavailable" />;
}
