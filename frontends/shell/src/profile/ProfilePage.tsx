import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Alert,
  Button,
  Spinner,
  useAuth,
  useDocumentTitle,
  useLiveRefresh,
  useMinimumBusy,
  useT,
  useToast,
  type LiveEvent,
} from '@lws/fe-ui';
import { ChangePasswordCard } from './ChangePasswordCard';
import { ChangePinCard } from './ChangePinCard';
import { DuressPinCard } from './DuressPinCard';
import { AwayCard } from './AwayCard';
import { ContactSettingsCard } from './ContactSettingsCard';
import { EmergencyContactsCard } from './EmergencyContactsCard';
import { LanguageCard } from './LanguageCard';
import { MedicalInfoCard } from './MedicalInfoCard';
import { NotificationsCard } from './NotificationsCard';
import { OnCallProfileCard } from './OnCallProfileCard';
import { UserInfoCard } from './UserInfoCard';
import { useProfileData } from './profile-data';

/** Spec section 9: /api/auth/me every 5 s on the profile, the user with relations every 15 s. */
export const ME_POLL_MS = 5000;
export const RELATIONS_POLL_MS = 15_000;
/** Spec section 9: the refresh spinner shows for 500 ms. */
export const REFRESH_SPINNER_MS = 500;

function backTarget(role: string | undefined): string {
  if (role === 'worker') return '/worker';
  if (role === 'admin') return '/admin';
  return '/';
}

export function ProfilePage() {
  const { user, logout, refresh } = useAuth();
  const navigate = useNavigate();
  const { toast } = useToast();
  const t = useT();
  useDocumentTitle(t('Profile'));
  const [editingContacts, setEditingContacts] = useState(false);
  const profile = useProfileData(user?.id ?? null, { paused: editingContacts, pollMs: RELATIONS_POLL_MS });
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);

  // A change to this account (from this tab, another device or an admin) refetches both; the spec's
  // polls run only while the stream is down. Everything waits while a contact is open for editing
  // (spec section 7), so nothing moves under the user's hands; one refetch follows when it closes.
  const ownAccount = (e: LiveEvent) => e.type === 'account' && e.data.userId === user?.id;
  useLiveRefresh(refresh, { types: ['account'], when: ownAccount, pollMs: ME_POLL_MS, paused: editingContacts });

  if (!user) return null;

  const manualRefresh = () =>
    runRefresh(async () => {
      const [me, reloaded] = await Promise.all([
        refresh(),
        profile.reload().then(
          () => true,
          () => false,
        ),
      ]);
      if (!me || !reloaded) toast({ title: t('Refresh failed'), message: t('There was a problem refreshing your data.'), type: 'error' });
    });

  const data = profile.data;
  const isWorker = user.role === 'worker';

  return (
    <div className="lws-page" data-testid="profile-page">
      <div className="lws-page__header">
        <h1 className="lws-page__title">{t('Profile')}</h1>
        <Button variant="outline" size="sm" busy={refreshing} onClick={() => void manualRefresh()} data-testid="profile-refresh">
          {refreshing ? t('Refreshing...') : t('Refresh')}
        </Button>
      </div>
      {profile.error && !data ? (
        <Alert variant="error" data-testid="profile-load-error">
          {t('There was a problem refreshing your data.')}
        </Alert>
      ) : null}
      <UserInfoCard user={user} team={data?.team ?? null} />
      <LanguageCard userId={user.id} language={user.language ?? 'en'} onSaved={refresh} />
      <EmergencyContactsCard
        userId={user.id}
        contacts={data ? data.emergencyContacts : null}
        onChanged={profile.reload}
        onEditingChange={setEditingContacts}
      />
      {isWorker ? (
        data ? (
          <>
            <MedicalInfoCard key={`medical:${data.medicalInfo}`} userId={user.id} medicalInfo={data.medicalInfo} onSaved={profile.reload} />
            <ContactSettingsCard
              key={`settings:${JSON.stringify([data.settings, data.checkInInterval, data.team?.allowedIntervals])}`}
              userId={user.id}
              settings={data.settings}
              checkInInterval={data.checkInInterval}
              allowedIntervals={data.team?.allowedIntervals}
              onSaved={profile.reload}
            />
          </>
        ) : (
          <Spinner label={t('Loading your emergency information')} />
        )
      ) : null}
      {user.role === 'admin' && data ? <AwayCard userId={user.id} awayUntil={data.awayUntil} onChanged={profile.reload} /> : null}
      {user.role === 'admin' || user.role === 'superadmin' ? <OnCallProfileCard /> : null}
      <NotificationsCard />
      <ChangePinCard userId={user.id} pinSet={user.pinSet ?? data?.pinSet ?? false} onChanged={profile.reload} />
      {user.role === 'worker' && (user.pinSet ?? data?.pinSet) ? (
        <DuressPinCard userId={user.id} duressPinSet={user.duressPinSet === true} />
      ) : null}
      <ChangePasswordCard temporary={user.passwordIsTemporary === true} />
      <div className="lws-actions">
        <Button variant="outline" onClick={() => navigate(backTarget(user.role))} data-testid="profile-back">
          {t('Back to Check-In')}
        </Button>
        <Button variant="destructive" onClick={() => void logout()} data-testid="profile-logout">
          {t('Log Out')}
        </Button>
      </div>
    </div>
  );
}
