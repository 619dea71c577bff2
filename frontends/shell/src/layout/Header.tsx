import { Link, useNavigate } from 'react-router';
import { Menu, MenuItem, MenuLabel, MenuSeparator, isRole, roleHome, useAuth, useT } from '@lws/fe-ui';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((p) => p!.charAt(0).toUpperCase()).join('') || '?';
}

export function Header() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const t = useT();
  const name = user?.name || t('Guest');
  const home = user && isRole(user.role) ? roleHome(user.role) : '/';

  return (
    <header className="lws-header" data-testid="app-header">
      <Link to={home} className="lws-header__brand">
        <span className="lws-header__logo" aria-hidden="true">
          LWS
        </span>
        <span className="lws-header__brand-text">{t('Lone Worker Safety')}</span>
      </Link>
      <Menu
        data-testid="user-menu"
        triggerTestId="user-menu-button"
        trigger={
          <>
            <span className="lws-avatar" aria-hidden="true">
              {initials(name)}
            </span>
            <span className="lws-header__user" data-testid="header-user-name">
              {name}
            </span>
          </>
        }
      >
        <MenuLabel>{t('My Account')}</MenuLabel>
        <MenuSeparator />
        <MenuItem data-testid="menu-profile" onSelect={() => navigate('/profile')}>
          {t('Profile')}
        </MenuItem>
        <MenuItem data-testid="menu-logout" onSelect={() => void logout()}>
          {t('Log out')}
        </MenuItem>
      </Menu>
    </header>
  );
}
