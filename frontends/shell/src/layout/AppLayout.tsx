import type { ReactNode } from 'react';
import { cx } from '@lws/fe-ui';
import { BottomNav } from './BottomNav';
import { Header } from './Header';

export function AppLayout({ bottomNav = false, children }: { bottomNav?: boolean; children: ReactNode }) {
  return (
    <div className="lws-app">
      <a className="lws-skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" tabIndex={-1} className={cx('lws-main', bottomNav && 'lws-main--with-bottom-nav')}>
        {children}
      </main>
      {bottomNav ? <BottomNav /> : null}
    </div>
  );
}
