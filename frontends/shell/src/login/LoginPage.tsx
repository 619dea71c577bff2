import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation } from 'react-router';
import type { z } from 'zod';
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
  api,
  isRole,
  roleHome,
  useAuth,
  useDocumentTitle,
  useT,
  LanguageSwitch,
} from '@lws/fe-ui';
import type { loginSchema } from '@lws/schemas';
import { lazyZodResolver } from './lazy-resolver';
import { loginFailureText, ssoFailureText } from './login-failure';
import { parseSsoOffer, SSO_OFFER_PATH, ssoStartHref } from './sso';
import { readRememberedUsername, saveRememberedUsername } from './remembered-username';

type LoginForm = z.input<typeof loginSchema>;
type LoginRequest = z.output<typeof loginSchema>;

// The gateway's own login schema, fetched when the form is first checked: the login screen shows
// without waiting for the validation library, and it is there by the time anyone presses Log In.
const login = lazyZodResolver<LoginForm, LoginRequest>(() => import('@lws/schemas').then((m) => m.loginSchema));

/**
 * The login screen. The form checks what it sends with the gateway's own schema (the same words
 * for an empty field), then the server's answer says whether the account exists.
 */
export function LoginPage() {
  const { user, loading, login: signIn } = useAuth();
  const t = useT();
  useDocumentTitle(t('Log in'));
  const [remembered] = useState(readRememberedUsername);
  const form = useForm<LoginForm, unknown, LoginRequest>({
    resolver: login.resolver,
    defaultValues: { username: remembered ?? '', password: '', rememberMe: remembered !== null },
  });
  const { errors, isSubmitting } = form.formState;
  const ids = { username: useId(), password: useId(), usernameError: useId(), passwordError: useId() };
  const { pathname, search } = useLocation();
  // A sign-in with the organisation's provider that failed comes back here naming why; the next
  // password attempt replaces the message, as any failure's.
  const [failure, setFailure] = useState<string | null>(() => ssoFailureText(new URLSearchParams(search).get('sso_error')));
  // Whether single sign-on is offered. The form shows at once and does not wait for it: without an
  // answer (an old gateway, the server down) the page is the password form, as it always was.
  const sso = useQuery({
    queryKey: ['auth', 'sso'],
    queryFn: async ({ signal }) => parseSsoOffer(await api.get(SSO_OFFER_PATH, { signal })),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const offer = sso.data?.enabled ? sso.data : null;
  // Asked for, or already in use when the answer came: a form being typed in never folds away.
  const [passwordWanted, setPasswordWanted] = useState(false);
  // Where a password is the superadmin's break-glass alone, the form would only mislead everyone else.
  const passwordHidden = offer?.passwordLogin === 'break_glass' && !passwordWanted;

  if (loading) return <PageStatus text={t('Loading...')} />;
  if (user && isRole(user.role)) return <Navigate to={roleHome(user.role)} replace />;

  const onSubmit = form.handleSubmit(
    async ({ username, password, rememberMe }) => {
      setFailure(null);
      try {
        await signIn({ username, password, rememberMe });
        saveRememberedUsername(rememberMe ? username : null);
      } catch (error) {
        setFailure(loginFailureText(error));
        form.resetField('password', { defaultValue: '' });
        form.setFocus('password');
      }
    },
    () => setFailure(null),
  );
  const username = form.register('username');

  return (
    <main className="lws-auth-screen">
      <div className="lws-auth-card">
        <div className="lws-auth-brand">
          <span className="lws-header__logo" aria-hidden="true">
            LWS
          </span>
          <h1>{t('Lone Worker Safety')}</h1>
          <p>{t('Check in, stay safe, get help fast.')}</p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle>{t('Log In')}</CardTitle>
            <CardDescription>
              {passwordHidden ? t("Use your organisation's account to continue.") : t('Enter your username and password to continue.')}
            </CardDescription>
          </CardHeader>
          <CardContent className="lws-form">
            {failure ? (
              <Alert variant="error" data-testid="login-error">
                {t(failure)}
              </Alert>
            ) : null}
            {offer ? (
              <>
                {/* A page of the gateway's, not a call: the browser goes on to the organisation's provider. */}
                <a
                  className="lws-btn lws-btn--primary lws-btn--lg lws-btn--block"
                  href={ssoStartHref(pathname, search)}
                  data-testid="login-sso"
                >
                  {offer.displayName ? t('Sign in with {{name}}', { name: offer.displayName }) : t('Sign in with your organisation')}
                </a>
                {passwordHidden ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-expanded={false}
                    onClick={() => {
                      flushSync(() => setPasswordWanted(true));
                      form.setFocus('username');
                    }}
                    data-testid="login-show-password"
                  >
                    {t('Sign in with a password (superadmin)')}
                  </Button>
                ) : (
                  <p className="lws-muted" style={{ textAlign: 'center' }}>
                    {t('or')}
                  </p>
                )}
              </>
            ) : null}
            {passwordHidden ? null : (
              <form
                className="lws-form"
                noValidate
                onSubmit={(event) => void onSubmit(event)}
                onFocus={() => {
                  login.warm();
                  setPasswordWanted(true);
                }}
                data-testid="login-form"
                aria-label={t('Log in')}
              >
                <div className="lws-field">
                  <Label htmlFor={ids.username}>{t('Username')}</Label>
                  <Input
                    {...username}
                    // Usernames are lower case: what is typed is shown as it will be matched.
                    onChange={(e) => {
                      e.target.value = e.target.value.toLowerCase();
                      void username.onChange(e);
                    }}
                    id={ids.username}
                    autoComplete="username"
                    autoCapitalize="none"
                    autoCorrect="off"
                    spellCheck={false}
                    invalid={Boolean(errors.username)}
                    aria-describedby={errors.username ? ids.usernameError : undefined}
                    data-testid="login-username"
                  />
                  <FieldError id={ids.usernameError} testId="login-username-error">
                    {errors.username?.message && t(errors.username.message)}
                  </FieldError>
                </div>
                <div className="lws-field">
                  <Label htmlFor={ids.password}>{t('Password')}</Label>
                  <Input
                    {...form.register('password')}
                    id={ids.password}
                    type="password"
                    autoComplete="current-password"
                    invalid={Boolean(errors.password)}
                    aria-describedby={errors.password ? ids.passwordError : undefined}
                    data-testid="login-password"
                  />
                  <FieldError id={ids.passwordError} testId="login-password-error">
                    {errors.password?.message && t(errors.password.message)}
                  </FieldError>
                </div>
                <Checkbox label={t('Remember me')} {...form.register('rememberMe')} data-testid="login-remember" />
                <Button type="submit" size="lg" block busy={isSubmitting} data-testid="login-submit">
                  {isSubmitting ? t('Logging in...') : t('Log In')}
                </Button>
              </form>
            )}
          </CardContent>
        </Card>
        <LanguageSwitch />
      </div>
    </main>
  );
}
