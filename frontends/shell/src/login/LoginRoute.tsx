import { useT } from '@lws/fe-ui';
import { OnDemandPage } from '../app/OnDemandPage';
import { loginPage } from './login-module';

/** The login page, loaded on first need. */
export function LoginRoute() {
  const t = useT();
  return <OnDemandPage page={loginPage} name={t('login page')} testId="login-unavailable" standalone />;
}
