import {
  Badge,
  Button,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  roleLabel,
} from '@lws/fe-ui';
import type { ShiftState } from '@lws/fe-ui/shifts';
import { ShiftDetailCells, ShiftStatusBadge, type OpenAlarmKind } from './ShiftCells';
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
  shift: ShiftState;
}

/** "Created by Sam Lee (Admin)": an admin an admin created shows as such to the superadmin. */
function createdByText(c: AccountCreator): string {
  return `Created by ${c.name ?? 'a deleted account'}${c.role ? ` (${roleLabel(c.role)})` : ''}`;
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
  return (
    <div className="lws-actions">
      {set ? <Badge variant="success">set</Badge> : <span className="lws-muted">{placeholder}</span>}
      <Button size="sm" variant="outline" onClick={onReset} aria-label={resetLabel} data-testid={testId}>
        Reset
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
  onReset(row: WorkerRow, kind: ResetKind): void;
  /** With several teams in view, each row names its worker's team. */
  teamName?: (teamId: number) => string | undefined;
  /** The kind of the worker's open alarm, if any: shown as their status, in red. */
  alarmOf?: (userId: number) => OpenAlarmKind | undefined;
  /** Names the table, e.g. "Active workers". */
  label: string;
  'data-testid': string;
  rowTestId: string;
}

/** The columns of spec section 2 shared by the Active Workers and All Worker Accounts tables. */
export function WorkerTable({ rows, superadmin, now, viewerId, onDelete, onReset, teamName, alarmOf, label, 'data-testid': testId, rowTestId }: WorkerTableProps) {
  return (
    <Table label={label} stickyFirstColumn data-testid={testId}>
      <TableHeader>
        <TableRow>
          <TableHead>Worker</TableHead>
          <TableHead>Username</TableHead>
          {teamName ? <TableHead>Team</TableHead> : null}
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
        {rows.map((row) => (
          <TableRow key={row.id} data-testid={rowTestId} data-username={row.username}>
            <TableCell>
              <strong>{row.name}</strong>
              {row.role !== 'worker' ? (
                <>
                  {' '}
                  <Badge variant="info">{roleLabel(row.role)}</Badge>
                </>
              ) : null}
              {row.phone ? <div className="lws-muted">{row.phone}</div> : null}
              {superadmin && row.role === 'admin' && row.createdBy ? (
                <div className="lws-muted" data-testid="account-created-by">
                  {createdByText(row.createdBy)}
                </div>
              ) : null}
            </TableCell>
            <TableCell>{row.username}</TableCell>
            {teamName ? <TableCell data-testid="worker-team">{row.teamId !== undefined ? (teamName(row.teamId) ?? '—') : '—'}</TableCell> : null}
            {superadmin ? (
              <>
                <TableCell data-testid="account-password">
                  <CredentialCell
                    set={row.passwordSet === true}
                    placeholder="[no password set]"
                    resetLabel={`Reset password for ${row.name}`}
                    onReset={() => onReset(row, 'password')}
                    testId="reset-password"
                  />
                </TableCell>
                <TableCell data-testid="account-pin">
                  <CredentialCell
                    set={row.pinSet === true}
                    placeholder="[no PIN set]"
                    resetLabel={`Reset PIN for ${row.name}`}
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
                <span className="lws-muted">None</span>
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
                {/* Call worker (spec section 2): the monitor's phone or softphone dials the worker. */}
                {row.phone ? (
                  <a
                    className="lws-btn lws-btn--outline lws-btn--sm"
                    href={`tel:${row.phone}`}
                    aria-label={`Call ${row.name} on ${row.phone}`}
                    data-testid="call-worker"
                  >
                    Call
                  </a>
                ) : null}
                {row.id !== viewerId ? (
                  <Button size="sm" variant="destructive" onClick={() => onDelete(row)} aria-label={`Delete ${row.name}`} data-testid="delete-user">
                    Delete
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
