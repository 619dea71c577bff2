import { useAuth, useDocumentTitle, useT } from '@lws/fe-ui';
import { LoadingSkeleton } from './LoadingSkeleton';
import { WorkerHome } from './WorkerHome';

/** The worker's home: shift, status, CHECK IN and emergency (spec section 2, /worker). */
export default function WorkerApp() {
  const { user, loading } = useAuth();
  const t = useT();
  useDocumentTitle(t('Check-In'));
  return (
    <div className="lws-page" data-testid="remote-worker">
      <header>
        <h1 className="lws-page__title">{t('Check-In')}</h1>
        {user ? (
          <p className="lws-page__subtitle">
            {t('Signed in as')} <strong data-testid="signed-in-name">{user.name}</strong>
          </p>
        ) : null}
      </header>
      {loading ? (
        <LoadingSkeleton />
      ) : user ? (
        <WorkerHome key={user.id} user={user} />
      ) : (
        <p>{t('Please log in to access your worker dashboard')}</p>
      )}
    </div>
  );
}
