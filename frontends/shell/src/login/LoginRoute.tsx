import { OnDemandPage } from '../app/OnDemandPage';
import { loginPage } from './login-module';

/** The login page, loaded on first need. */
export function LoginRoute() {
  return <OnDemandPage page={loginPage} name="login page" testId="login-unavailable" standalone />;
}
