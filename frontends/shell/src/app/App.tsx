import { BrowserRouter, Route, Routes } from 'react-router';
import { AuthProvider, LiveEventsProvider, LiveQueries, ToastProvider, ToastStack } from '@lws/fe-ui';
import { CookieConsentBanner } from '../cookie-consent/CookieConsentBanner';
import { AppLayout } from '../layout/AppLayout';
import { LoginRoute } from '../login/LoginRoute';
import { NotFoundPage } from '../not-found/NotFoundPage';
import { ProfileRoute } from './pages';
import { RemoteSection } from '../remotes/RemoteSection';
import { DashboardGate, RequireAuth, RootRedirect, TestRemindersRedirect } from '../routing/guards';

/** `firstSessionCheck`: GET /api/auth/me, if the page already sent it (early-requests.ts). */
export function App({ firstSessionCheck }: { firstSessionCheck?: Promise<Response> }) {
  return (
    // Navigation is applied at once, not as a transition, so that logging out
    // (clear the user, go to /kiosk) lands in one render and no guard sees the
    // old page without a user and sends the kiosk to /login instead.
    <BrowserRouter useTransitions={false}>
      <ToastProvider>
        <AuthProvider firstCheck={firstSessionCheck}>
          <LiveEventsProvider>
            <LiveQueries>
              <Routes>
                <Route path="/login" element={<LoginRoute />} />
                {/* The kiosk is a shared terminal: no session, no guard, no header. */}
                <Route path="/kiosk" element={<RemoteSection name="kiosk" />} />
                <Route path="/" element={<RootRedirect />} />
                <Route
                  path="/worker"
                  element={
                    <RequireAuth roles={['worker']}>
                      <AppLayout bottomNav>
                        <RemoteSection name="worker" />
                      </AppLayout>
                    </RequireAuth>
                  }
                />
                <Route
                  path="/admin"
                  element={
                    <DashboardGate allow={['admin']}>
                      <AppLayout wide>
                        <RemoteSection name="admin" />
                      </AppLayout>
                    </DashboardGate>
                  }
                />
                <Route
                  path="/superadmin"
                  element={
                    <DashboardGate allow={['superadmin']}>
                      <AppLayout wide>
                        <RemoteSection name="superadmin" />
                      </AppLayout>
                    </DashboardGate>
                  }
                />
                <Route
                  path="/profile"
                  element={
                    <RequireAuth>
                      <AppLayout bottomNav>
                        <ProfileRoute />
                      </AppLayout>
                    </RequireAuth>
                  }
                />
                <Route path="/test-reminders" element={<TestRemindersRedirect />} />
                <Route
                  path="*"
                  element={
                    <AppLayout>
                      <NotFoundPage />
                    </AppLayout>
                  }
                />
              </Routes>
              <ToastStack />
              <CookieConsentBanner />
            </LiveQueries>
          </LiveEventsProvider>
        </AuthProvider>
      </ToastProvider>
    </BrowserRouter>
  );
}
