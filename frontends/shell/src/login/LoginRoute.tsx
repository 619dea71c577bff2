import { Button, Card, CardDescription, CardFooter, CardHeader, CardTitle, PageStatus } from '@lws/fe-ui';
import { useLoaded } from '../app/use-loaded';
import { loadedLoginPage, loadLoginPage } from './login-module';

/** The login page, loaded on first need: 'Loading...' until it is there, and a Retry if it cannot be fetched. */
export function LoginRoute() {
  const login = useLoaded(loadedLoginPage, loadLoginPage);
  const Page = login.value;
  if (Page) return <Page />;
  if (login.error) {
    return (
      <main className="lws-auth-screen">
        <Card className="lws-remote-unavailable" role="alert" data-testid="login-unavailable">
          <CardHeader>
            <CardTitle>Cannot load the login page</CardTitle>
            <CardDescription>Check your connection and try again.</CardDescription>
          </CardHeader>
          <CardFooter>
            <Button onClick={login.retry} data-testid="login-retry">
              Retry
            </Button>
          </CardFooter>
        </Card>
      </main>
    );
  }
  return <PageStatus text="Loading..." />;
}
