import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  failureMessage,
  roleLabel,
  useAuth,
  useInterval,
  useMinimumBusy,
  useToast,
} from '@lws/fe-ui';
import { parseAccounts, type Account } from './accounts-api';
import { OneTimeSecretDialog, type OneTimeSecret } from './OneTimeSecretDialog';

/** Spec section 9: worker lists poll every 30 s; the refresh spinner shows 500 ms. */
export const ACCOUNTS_POLL_MS = 30_000;
export const REFRESH_SPINNER_MS = 500;

/** Spec section 8: 'Failed to fetch worker accounts: {status}'. */
function loadFailureText(error: unknown): string {
  if (error instanceof ApiError) return `Failed to fetch worker accounts: ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}

type Load = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; accounts: Account[] };
type ResetKind = 'password' | 'pin';

function useAccounts() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const accounts = parseAccounts(await api.get('/api/worker-accounts'));
      if (ticket === latest.current) setLoad({ state: 'ready', accounts });
    } catch (e) {
      console.error('Loading worker accounts failed', e);
      // A failed poll keeps the table the user is reading; only a first load shows the error.
      if (ticket === latest.current) {
        setLoad((current) =>
          current.state === 'ready' ? current : { state: 'error', message: loadFailureText(e) },
        );
      }
      throw e;
    }
  }, []);
  useEffect(() => {
    reload().catch(() => undefined);
  }, [reload]);
  return { load, reload };
}

function CredentialCell({
  set,
  placeholder,
  onReset,
  resetLabel,
  testId,
}: {
  set: boolean;
  placeholder: string;
  onReset(): void;
  resetLabel: string;
  testId: string;
}) {
  return (
    <div className="lws-actions">
      {set ? <Badge variant="success">set</Badge> : <span className="lws-muted">{placeholder}</span>}
      <Button size="sm" variant="outline" onClick={onReset} aria-label={resetLabel} data-testid={testId}>
        Reset
      </Button>
    </div>
  );
}

/**
 * The Worker Dashboard tab: 'Worker Status Dashboard' with the All Worker Accounts table.
 * Columns follow the viewer's role (spec section 2): a superadmin also sees Password and
 * PIN, as set or not set with a Reset action; the values themselves never reach the browser.
 * Shift columns read 'Clocked Out' and N/A until shifts exist.
 */
export function WorkerDashboard() {
  const { user } = useAuth();
  const { toast } = useToast();
  const { load, reload } = useAccounts();
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  const [deleting, setDeleting] = useState<Account | null>(null);
  const [resetting, setResetting] = useState<{ account: Account; kind: ResetKind } | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<OneTimeSecret | null>(null);
  const superadmin = user?.role === 'superadmin';

  useInterval(() => void reload().catch(() => undefined), ACCOUNTS_POLL_MS);

  const refreshData = () => runRefresh(() => reload().catch(() => undefined));

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/api/users/${deleting.id}`);
      toast({ title: 'User deleted', message: `${deleting.name} (${deleting.username}) has been deleted.` });
      setDeleting(null);
    } catch (e) {
      console.error('Deleting a user failed', e);
      toast({ title: 'Delete failed', message: 'Failed to delete user. Please try again.', type: 'error' });
    } finally {
      setBusy(false);
    }
    await reload().catch(() => undefined);
  };

  const confirmReset = async () => {
    if (!resetting) return;
    const { account, kind } = resetting;
    setBusy(true);
    try {
      if (kind === 'pin') {
        const body = (await api.post(`/api/users/${account.id}/reset-pin`)) as { pin?: unknown } | undefined;
        if (typeof body?.pin !== 'string') throw new Error('The server sent no PIN');
        setSecret({ title: `New PIN for ${account.name}`, owner: account.name, value: body.pin });
      } else {
        const body = (await api.post(`/api/users/${account.id}/reset-password`)) as { temporaryPassword?: unknown } | undefined;
        if (typeof body?.temporaryPassword !== 'string') throw new Error('The server sent no password');
        setSecret({ title: `Temporary password for ${account.name}`, owner: account.name, value: body.temporaryPassword });
      }
      setResetting(null);
    } catch (e) {
      console.error('Reset failed', e);
      toast({ title: 'Reset failed', message: failureMessage(e, 'Please try again.'), type: 'error' });
    } finally {
      setBusy(false);
    }
    await reload().catch(() => undefined);
  };

  return (
    <section className="lws-page" aria-labelledby="worker-dashboard-title" data-testid="worker-dashboard">
      <div className="lws-page__header">
        <h2 id="worker-dashboard-title" className="lws-section-title">
          Worker Status Dashboard
        </h2>
        <Button variant="outline" busy={refreshing} onClick={() => void refreshData()} data-testid="refresh-data">
          Refresh Data
        </Button>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>All Worker Accounts</CardTitle>
          <CardDescription>
            {superadmin ? 'Every worker and admin account.' : 'Every worker account.'} Shift details appear here once shifts are in use.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {load.state === 'loading' ? (
            <div role="status" aria-label="Loading worker accounts">
              <Skeleton height="2.5rem" />
            </div>
          ) : load.state === 'error' ? (
            <Alert variant="error" title="Error loading workers" data-testid="accounts-error">
              <p>{load.message}</p>
              <Button size="sm" variant="outline" onClick={() => void refreshData()}>
                Try again
              </Button>
            </Alert>
          ) : load.accounts.length === 0 ? (
            <div data-testid="accounts-empty">
              <p className="lws-card__title">No Worker Accounts</p>
              <p className="lws-muted">Create one in the Create User tab.</p>
            </div>
          ) : (
            <Table data-testid="accounts-table">
              <TableHeader>
                <TableRow>
                  <TableHead>Worker</TableHead>
                  <TableHead>Username</TableHead>
                  {superadmin ? (
                    <>
                      <TableHead>Password</TableHead>
                      <TableHead>PIN</TableHead>
                    </>
                  ) : null}
                  <TableHead>Shift Status</TableHead>
                  <TableHead>Location</TableHead>
                  <TableHead>Last Check-in</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Emergency Contacts</TableHead>
                  <TableHead>Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {load.accounts.map((a) => (
                  <TableRow key={a.id} data-testid="account-row" data-username={a.username}>
                    <TableCell>
                      <strong>{a.name}</strong>
                      {a.role !== 'worker' ? (
                        <>
                          {' '}
                          <Badge variant="info">{roleLabel(a.role)}</Badge>
                        </>
                      ) : null}
                      {a.phone ? <div className="lws-muted">{a.phone}</div> : null}
                    </TableCell>
                    <TableCell>{a.username}</TableCell>
                    {superadmin ? (
                      <>
                        <TableCell data-testid="account-password">
                          <CredentialCell
                            set={a.passwordSet === true}
                            placeholder="[no password set]"
                            resetLabel={`Reset password for ${a.name}`}
                            onReset={() => setResetting({ account: a, kind: 'password' })}
                            testId="reset-password"
                          />
                        </TableCell>
                        <TableCell data-testid="account-pin">
                          <CredentialCell
                            set={a.pinSet === true}
                            placeholder="[no PIN set]"
                            resetLabel={`Reset PIN for ${a.name}`}
                            onReset={() => setResetting({ account: a, kind: 'pin' })}
                            testId="reset-pin"
                          />
                        </TableCell>
                      </>
                    ) : null}
                    <TableCell>
                      <Badge variant="neutral">Clocked Out</Badge>
                    </TableCell>
                    <TableCell>N/A</TableCell>
                    <TableCell>N/A</TableCell>
                    <TableCell>N/A</TableCell>
                    <TableCell data-testid="account-contacts">
                      {a.emergencyContacts.length === 0 ? (
                        <span className="lws-muted">None</span>
                      ) : (
                        <ul className="lws-list">
                          {a.emergencyContacts.map((c) => (
                            <li key={c.id}>
                              {c.name}
                              {c.relation ? ` (${c.relation})` : ''}
                              <div className="lws-muted">{c.phone}</div>
                            </li>
                          ))}
                        </ul>
                      )}
                    </TableCell>
                    <TableCell>
                      {a.id !== user?.id ? (
                        <Button size="sm" variant="destructive" onClick={() => setDeleting(a)} aria-label={`Delete ${a.name}`} data-testid="delete-user">
                          Delete
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete User"
        description={
          deleting
            ? `Are you sure you want to delete ${deleting.name} (${deleting.username})? This action cannot be undone. It permanently removes the account and all of its data, including emergency contacts, settings and check-in history.`
            : ''
        }
        confirmLabel="Delete User"
        busyLabel="Deleting..."
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        data-testid="delete-user-dialog"
      />
      <ConfirmDialog
        open={resetting !== null}
        title={resetting?.kind === 'pin' ? 'Reset PIN' : 'Reset Password'}
        description={
          resetting
            ? resetting.kind === 'pin'
              ? `Issue a new PIN for ${resetting.account.name}? Their current PIN stops working at once. The new PIN is shown to you once.`
              : `Issue a temporary password for ${resetting.account.name}? Their current password stops working and they are logged out everywhere. The temporary password is shown to you once.`
            : ''
        }
        confirmLabel={resetting?.kind === 'pin' ? 'Reset PIN' : 'Reset Password'}
        busyLabel="Resetting..."
        busy={busy}
        onConfirm={() => void confirmReset()}
        onCancel={() => setResetting(null)}
        data-testid="reset-dialog"
      />
      <OneTimeSecretDialog secret={secret} onClose={() => setSecret(null)} />
    </section>
  );
}
