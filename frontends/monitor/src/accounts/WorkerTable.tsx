import { Badge, Button, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, roleLabel, useT, type Translate } from '@lws/fe-ui';
import type { ShiftState } from '@lws/fe-ui/shifts';
import { ShiftDetailCells, ShiftStatusBadge, VisitLine, type OpenAlarmKind } from './ShiftCells';
import type { AccountContact, AccountCreator } from './accounts-api';

/** One row of a worker table: an account with its shift. */
export interface WorkerRow {
  id: number;
  name: string;
  username: string;
  role: string;
  phone?: string;
  teamId?: number;
  emergencyContacts: AccountContact[];
  passwordSet?: boolean;
  pinSet?: boolean;
  createdBy?: AccountCreator | null;
  /** Deactivated: offered Reactivate instead of Deactivate. */
  disabled?: boolean;
  shift: ShiftState;
}

const roleName = (role: string, t: Translate) => t(roleLabel(role));

/** "Created by Sam Lee (Admin)": an admin an admin created shows as such to the superadmin. */
function createdByText(c: AccountCreator, t: Translate): string {
  const name = c.name ?? t('a deleted account');
  return c.role ? t('Created by {{name}} ({{role}})', { name, role: roleName(c.role, t) }) : t('Created by {{name}}', { name });
}

export type ResetKind = 'password' | 'pin';

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
  const t = useT();
  return (
    <div className="lws-actions">
      {set ? <Badge variant="success">{t('set')}</Badge> : <span className="lws-muted">{placeholder}</span>}
      <Button size="sm" variant="outline" onClick={onReset} aria-label={resetLabel} data-testid={testId}>
        {t('Reset')}
      </Button>
    </div>
  );
}

export interface WorkerTableProps {
  rows: WorkerRow[];
  /** A superadmin also sees Password and PIN (as set or not set, with Reset). */
  superadmin: boolean;
  /** The server's time, for the Checked In / Due Soon / Overdue labels. */
  now: Date;
  /** The signed-in user, who cannot delete their own account. */
  viewerId: number | undefined;
  onDelete(row: WorkerRow): void;
  onDeactivate(row: WorkerRow): void;
  onReactivate(row: WorkerRow): void;
  onReset(row: WorkerRow, kind: ResetKind): void;
  /** With several teams in view, each row names its worker's team. */
  teamName?: (teamId: number) => string | undefined;
  /** The kind of the worker's open alarm, if any: shown as their status, in red. */
  alarmOf?: (userId: number) => OpenAlarmKind | undefined;
  /** Offers each worker on shift "Ask to check in" (one table only, so each worker has one such button). */
  onAskCheckIn?(row: WorkerRow): void;
  /** Whether the ask of this worker is in flight. */
  askingCheckIn?: (userId: number) => boolean;
  /** Shows a worker's timed visit under way under their name (one table only, so each visit shows once). */
  showVisits?: boolean;
  /** Names the table, e.g. "Active workers", in the language shown. */
  label: string;
  'data-testid': string;
  rowTestId: string;
}

/** The columns of spec section 2 shared by the Active Workers and All Worker Accounts tables. */
export function WorkerTable({
  rows,
  superadmin,
  now,
  viewerId,
  onDelete,
  onDeactivate,
  onReactivate,
  onReset,
  teamName,
  alarmOf,
  onAskCheckIn,
  askingCheckIn,
  showVisits = false,
  label,
  'data-testid': testId,
  rowTestId,
}: WorkerTableProps) {
  const t = useT();
  return (
    <Table label={label} stickyFirstColumn data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('Worker')}</TableHead>
          <TableHead>{t('Username')}</TableHead>
          {teamName ? <TableHead>{t('Team')}</TableHead> : null}
          {superadmin ? (
            <>
              <TableHead>{t('Password')}</TableHead>
              <TableHead>{t('PIN')}</TableHead>
            </>
          ) : null}
          <TableHead>{t('Shift Status')}</TableHead>
          <TableHead>{t('Location')}</TableHead>
          <TableHead>{t('Last Check-in')}</TableHead>
          <TableHead>{t('Status')}</TableHead>
          <TableHead>{t('Emergency Contacts')}</TableHead>
          <TableHead>{t('Actions')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id} data-testid={rowTestId} data-username={row.username}>
            <TableCell>
              <strong>{row.name}</strong>
              {row.role !== 'worker' ? (
                <>
                  {' '}
                  <Badge variant="info">{roleName(row.role, t)}</Badge>
                </>
              ) : null}
              {row.disabled ? (
                <>
                  {' '}
                  <Badge variant="warning" data-testid="account-deactivated">
                    {t('Deactivated')}
                  </Badge>
                </>
              ) : null}
              {row.phone ? <div className="lws-muted">{row.phone}</div> : null}
              {showVisits && row.shift.onShift && row.shift.visit ? <VisitLine visit={row.shift.visit} /> : null}
              {superadmin && row.role === 'admin' && row.createdBy ? (
                <div className="lws-muted" data-testid="account-created-by">
                  {createdByText(row.createdBy, t)}
                </div>
              ) : null}
            </TableCell>
            <TableCell>{row.username}</TableCell>
            {teamName ? (
              <TableCell data-testid="worker-team">{row.teamId !== undefined ? (teamName(row.teamId) ?? '—') : '—'}</TableCell>
            ) : null}
            {superadmin ? (
              <>
                <TableCell data-testid="account-password">
                  <CredentialCell
                    set={row.passwordSet === true}
                    placeholder={t('[no password set]')}
                    resetLabel={t('Reset password for {{name}}', { name: row.name })}
                    onReset={() => onReset(row, 'password')}
                    testId="reset-password"
                  />
                </TableCell>
                <TableCell data-testid="account-pin">
                  <CredentialCell
                    set={row.pinSet === true}
                    placeholder={t('[no PIN set]')}
                    resetLabel={t('Reset PIN for {{name}}', { name: row.name })}
                    onReset={() => onReset(row, 'pin')}
                    testId="reset-pin"
                  />
                </TableCell>
              </>
            ) : null}
            <TableCell>
              <ShiftStatusBadge onShift={row.shift.onShift} />
            </TableCell>
            <ShiftDetailCells state={row.shift} now={now} alarm={alarmOf?.(row.id)} />
            <TableCell data-testid="account-contacts">
              {row.emergencyContacts.length === 0 ? (
                <span className="lws-muted">{t('None')}</span>
              ) : (
                <ul className="lws-list">
                  {row.emergencyContacts.map((c) => (
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
              <div className="lws-actions">
                {onAskCheckIn && row.shift.onShift ? (
                  <Button
                    size="sm"
                    variant="outline"
                    busy={askingCheckIn?.(row.id) ?? false}
                    onClick={() => onAskCheckIn(row)}
                    // The visible words first, so a voice command naming them finds the button.
                    aria-label={t('Ask to check in: {{name}}', { name: row.name })}
                    data-testid="ask-check-in"
                  >
                    {t('Ask to check in')}
                  </Button>
                ) : null}
                {/* Call worker (spec section 2): the monitor's phone or softphone dials the worker. */}
                {row.phone ? (
                  <a
                    className="lws-btn lws-btn--outline lws-btn--sm"
                    href={`tel:${row.phone}`}
                    aria-label={t('Call {{name}} on {{phone}}', { name: row.name, phone: row.phone })}
                    data-testid="call-worker"
                  >
                    {t('Call')}
                  </a>
                ) : null}
                {/* The server refuses to deactivate a superadmin, so such a row is never offered it. */}
                {row.id !== viewerId && row.role !== 'superadmin' ? (
                  row.disabled ? (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onReactivate(row)}
                      aria-label={t('Reactivate {{name}}', { name: row.name })}
                      data-testid="reactivate-user"
                    >
                      {t('Reactivate')}
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onDeactivate(row)}
                      aria-label={t('Deactivate {{name}}', { name: row.name })}
                      data-testid="deactivate-user"
                    >
                      {t('Deactivate')}
                    </Button>
                  )
                ) : null}
                {row.id !== viewerId ? (
                  <Button
                    size="sm"
                    variant="destructive"
                    onClick={() => onDelete(row)}
                    aria-label={t('Delete {{name}}', { name: row.name })}
                    data-testid="delete-user"
                  >
                    {t('Delete')}
                  </Button>
                ) : null}
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
