import { useId, useRef, useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Checkbox,
  FieldError,
  Input,
  Label,
  PageStatus,
  isRole,
  roleHome,
  useAuth,
  useDocumentTitle,
} from '@lws/fe-ui';
import { loginFailureText } from './login-failure';
import { readRememberedUsername, saveRememberedUsername } from './remembered-username';
import { validateLogin, type LoginErrors } from './validate-login';

export function LoginPage() {
  const { user, loading, login } = useAuth();
  useDocumentTitle('Log in');
  const [remembered] = useState(readRememberedUsername);
  const [username, setUsername] = useState(remembered ?? '');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(remembered !== null);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const ids = { username: useId(), password: useId(), usernameError: useId(), passwordError: useId() };

  if (loading) return <PageStatus text="Loading..." />;
  if (user && isRole(user.role)) return <Navigate to={roleHome(user.role)} replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateLogin({ username, password });
    setErrors(found);
    setFailure(null);
    if (found.username) return usernameRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();

    setSubmitting(true);
    try {
      await login({ username, password, rememberMe });
      saveRememberedUsername(rememberMe ? username.trim() : null);
    } catch (error) {
      setFailure(loginFailureText(error));
      setPassword('');
      setSubmitting(false);
      passwordRef.current?.focus();
    }
  };

  return (
    <main className="lws-auth-screen">
      <div className="lws-auth-card">
        <div className="lws-auth-brand">
          <span className="lws-header__logo" aria-hidden="true">
            LWS
          </span>
          <h1>Lone Worker Safety</h1>
          <p>Check in, stay safe, get help fast.</p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>Log In</CardTitle>
            <CardDescription>Enter your username and password to continue.</CardDescription>
          </CardHeader>
          <CardContent>
            <form className="lws-form" noValidate onSubmit={onSubmit} data-testid="login-form" aria-label="Log in">
              {failure ? (
                <Alert variant="error" data-testid="login-error">
                  {failure}
                </Alert>
              ) : null}
              <div className="lws-field">
                <Label htmlFor={ids.username}>Username</Label>
                <Input
                  ref={usernameRef}
                  id={ids.username}
                  name="username"
                  autoComplete="username"
                  autoCapitalize="none"
                  autoCorrect="off"
                  spellCheck={false}
                  value={username}
                  onChange={(e) => setUsername(e.target.value.toLowerCase())}
                  invalid={Boolean(errors.username)}
                  aria-describedby={errors.username ? ids.usernameError : undefined}
                  data-testid="login-username"
                />
                <FieldError id={ids.usernameError} testId="login-username-error">
                  {errors.username}
                </FieldError>
              </div>
              <div className="lws-field">
                <Label htmlFor={ids.password}>Password</Label>
                <Input
                  ref={passwordRef}
                  id={ids.password}
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  invalid={Boolean(errors.password)}
                  aria-describedby={errors.password ? ids.passwordError : undefined}
                  data-testid="login-password"
                />
                <FieldError id={ids.passwordError} testId="login-password-error">
                  {errors.password}
                </FieldError>
              </div>
              <Checkbox
                label="Remember me"
                name="rememberMe"
                checked={rememberMe}
                onChange={(e) => setRememberMe(e.target.checked)}
                data-testid="login-remember"
              />
              <Button type="submit" size="lg" block busy={submitting} data-testid="login-submit">
                {submitting ? 'Logging in...' : 'Log In'}
              </Button>
            </form>
          </CardContent>
        </Card>
      </div>
    </main>
  );
}
