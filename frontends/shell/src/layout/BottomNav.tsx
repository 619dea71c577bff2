import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { msg, useAuth, useT } from '@lws/fe-ui';

interface NavItem {
  to: string;
  /** In English, marked with msg(): shown through t(). */
  label: string;
  testId: string;
  icon: ReactNode;
}

const icon = (d: string) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d={d} />
  </svg>
);

const DASHBOARD = icon('M3 13h8V3H3zM13 21h8V11h-8zM3 21h8v-6H3zM13 3v6h8V3z');
const CHECK_IN = icon('M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10zM9 12l2 2 4-4');
const PROFILE = icon('M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z');

function itemsFor(role: string | undefined): NavItem[] {
  // Monitors have one place to be; a superadmin's dashboard is /superadmin.
  if (role === 'admin') return [{ to: '/admin', label: msg('Dashboard'), testId: 'nav-dashboard', icon: DASHBOARD }];
  if (role === 'superadmin') return [{ to: '/superadmin', label: msg('Dashboard'), testId: 'nav-dashboard', icon: DASHBOARD }];
  return [
    { to: '/worker', label: msg('Check-In'), testId: 'nav-checkin', icon: CHECK_IN },
    { to: '/profile', label: msg('Profile'), testId: 'nav-profile', icon: PROFILE },
  ];
}

export function BottomNav() {
  const { user } = useAuth();
  const t = useT();
  return (
    <nav className="lws-bottom-nav" aria-label={t('Main')} data-testid="bottom-nav">
      {itemsFor(user?.role).map((item) => (
        <NavLink key={item.to} to={item.to} className="lws-bottom-nav__link" data-testid={item.testId}>
          {item.icon}
          <span>{t(item.label)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
