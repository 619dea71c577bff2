import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cx, roleHome, useAuth, useT } from '@lws/fe-ui';
import { AlarmBanner } from '../alarms/AlarmBanner';
import { OfflineBanner } from '../offline/OfflineBanner';
import { BottomNav } from './BottomNav';
import { Header } from './Header';

/** `wide`: the monitors' dashboards use the screen's width (their tables are wide); other pages stay a readable column. */
export function AppLayout({ bottomNav = false, wide = false, children }: { bottomNav?: boolean; wide?: boolean; children: ReactNode }) {
  const { user } = useAuth();
  const t = useT();
  const monitor = user?.role === 'admin' || user?.role === 'superadmin';
  return (
    <div className="lws-app">
      <a className="lws-skip-link" href="#main">
        {t('Skip to content')}
      </a>
      <Header />
      {user ? <OfflineBanner worker={user.role === 'worker'} /> : null}
      {/* Every page a monitor opens says when an alarm waits for an owner. */}
      {monitor ? <AlarmBanner dashboardPath={roleHome(user.role)} /> : null}
      {/* A password a superadmin reset or an import generated is for the first sign-in only. */}
      {user?.passwordIsTemporary ? (
        <div className="lws-notice" role="status" data-testid="temporary-password-banner">
          {t('You are using a temporary password.')} <Link to="/profile">{t('Choose your own now')}</Link>.
        </div>
      ) : null}
      <main id="main" tabIndex={-1} className={cx('lws-main', bottomNav && 'lws-main--with-bottom-nav', wide && 'lws-main--wide')}>
        {children}
      </main>
      {bottomNav ? <BottomNav /> : null}
    </div>
  );
}
