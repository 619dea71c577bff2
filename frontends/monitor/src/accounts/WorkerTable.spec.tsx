/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WorkerTable, type WorkerRow } from './WorkerTable';

const NOW = new Date('2026-11-27T10:00:00Z');

const row = (over: Partial<WorkerRow> & Pick<WorkerRow, 'id' | 'name' | 'username'>): WorkerRow => ({
  role: 'worker',
  emergencyContacts: [],
  shift: {
    onShift: true,
    location: 'The Prospect Building',
    shiftStartTime: '2026-11-27T08:00:00Z',
    latestCheckIn: null,
    nextCheckInTime: '2026-11-27T10:30:00Z',
    visit: null,
  },
  ...over,
});

const ROWS = [
  row({ id: 7, name: 'Ann Lone', username: 'ann', phone: '+447911123456', passwordSet: true, pinSet: false }),
  row({
    id: 8,
    name: 'Bo Field',
    username: 'bo',
    emergencyContacts: [{ id: 1, name: 'Cy Field', phone: '+447911654321', relation: 'Brother' }],
  }),
  row({ id: 1, name: 'Sue Per', username: 'superadmin', role: 'superadmin', phone: '+447911000111' }),
];

function renderTable(props: Partial<Parameters<typeof WorkerTable>[0]> = {}) {
  const onDelete = jest.fn();
  const onReset = jest.fn();
  const onDeactivate = jest.fn();
  const onReactivate = jest.fn();
  render(
    <WorkerTable
      rows={ROWS}
      superadmin={false}
      now={NOW}
      viewerId={1}
      onDelete={onDelete}
      onReset={onReset}
      onDeactivate={onDeactivate}
      onReactivate={onReactivate}
      label="Active workers"
      data-testid="active-workers-table"
      rowTestId="active-worker-row"
      {...props}
    />,
  );
  return { onDelete, onReset, onDeactivate, onReactivate };
}

const rowOf = (name: string) => screen.getAllByTestId('active-worker-row').find((r) => within(r).queryByText(name))!;

afterEach(cleanup);

describe('WorkerTable (spec section 2; issue 14)', () => {
  it('is a named region keyboard users can focus and scroll, the worker column held in view', () => {
    renderTable();
    const region = screen.getByRole('region', { name: 'Active workers' });
    expect(region.tabIndex).toBe(0);
    expect(within(region).getByRole('table', { name: 'Active workers' }).className).toContain('lws-table--sticky-first');
    expect(
      within(region)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Worker', 'Username', 'Shift Status', 'Location', 'Last Check-in', 'Status', 'Emergency Contacts', 'Actions']);
  });

  it('offers to call each worker who has a phone, by a tel: link naming them', () => {
    renderTable();
    const call = within(rowOf('Ann Lone')).getByRole('link', { name: 'Call Ann Lone on +447911123456' });
    expect(call.getAttribute('href')).toBe('tel:+447911123456');
    expect(within(rowOf('Bo Field')).queryByRole('link', { name: /^Call/ })).toBeNull();
  });

  it("deletes any account but the viewer's own, asking the caller with the row", async () => {
    const { onDelete } = renderTable();
    expect(within(rowOf('Sue Per')).queryByRole('button', { name: /^Delete/ })).toBeNull();
    await userEvent.click(within(rowOf('Bo Field')).getByRole('button', { name: 'Delete Bo Field' }));
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 8, username: 'bo' }));
  });

  it("offers Deactivate beside Delete on an active account, never on the viewer's own", async () => {
    const { onDeactivate } = renderTable({ viewerId: 7 });
    expect(within(rowOf('Ann Lone')).queryByRole('button', { name: /^Deactivate/ })).toBeNull();
    expect(within(rowOf('Bo Field')).queryByTestId('account-deactivated')).toBeNull();
    await userEvent.click(within(rowOf('Bo Field')).getByRole('button', { name: 'Deactivate Bo Field' }));
    expect(onDeactivate).toHaveBeenCalledWith(expect.objectContaining({ id: 8, username: 'bo' }));
  });

  it('marks a deactivated account and offers Reactivate instead of Deactivate', async () => {
    const { onReactivate } = renderTable({ rows: [row({ id: 9, name: 'Di Sabled', username: 'di', disabled: true })] });
    const di = rowOf('Di Sabled');
    expect(within(di).getByTestId('account-deactivated').textContent).toBe('Deactivated');
    expect(within(di).queryByRole('button', { name: /^Deactivate/ })).toBeNull();
    await userEvent.click(within(di).getByRole('button', { name: 'Reactivate Di Sabled' }));
    expect(onReactivate).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }));
  });

  it('shows a superadmin whether a password and a PIN are set, never their values, with Reset', async () => {
    const { onReset } = renderTable({ superadmin: true });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(2, 4)).toEqual(['Password', 'PIN']);
    const ann = rowOf('Ann Lone');
    expect(within(ann).getByText('set')).toBeTruthy();
    expect(within(ann).getByText('[no PIN set]')).toBeTruthy();
    await userEvent.click(within(ann).getByRole('button', { name: 'Reset password for Ann Lone' }));
    expect(onReset).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), 'password');
  });

  it("shows a superadmin who created each admin, an admin's creation as such; nobody else sees it", () => {
    const rows = [
      row({ id: 20, name: 'Ada Min', username: 'ada', role: 'admin', createdBy: { id: 21, name: 'Deb Uty', role: 'admin' } }),
      row({ id: 22, name: 'Ed Min', username: 'ed', role: 'admin', createdBy: { id: 23, name: null, role: null } }),
      row({ id: 24, name: 'Wyn Orker', username: 'wyn', createdBy: { id: 21, name: 'Deb Uty', role: 'admin' } }),
    ];
    renderTable({ rows, superadmin: true });
    expect(within(rowOf('Ada Min')).getByTestId('account-created-by').textContent).toBe('Created by Deb Uty (Admin)');
    expect(within(rowOf('Ed Min')).getByTestId('account-created-by').textContent).toBe('Created by a deleted account');
    expect(within(rowOf('Wyn Orker')).queryByTestId('account-created-by')).toBeNull();
    cleanup();
    renderTable({ rows });
    expect(screen.queryAllByTestId('account-created-by')).toEqual([]);
  });

  it('lists emergency contacts with relation and phone, or None', () => {
    renderTable();
    expect(within(rowOf('Bo Field')).getByTestId('account-contacts').textContent).toBe('Cy Field (Brother)+447911654321');
    expect(within(rowOf('Ann Lone')).getByTestId('account-contacts').textContent).toBe('None');
  });

  it('shows the timed visit a worker is on, with its type, in the table that shows visits', () => {
    const onVisit = (id: number, name: string, username: string, type: { id: string; name: string } | null) =>
      row({
        id,
        name,
        username,
        shift: {
          ...row({ id, name, username }).shift,
          visit: {
            id: `v${id}`,
            where: '12 Mill Lane',
            startedAt: '2026-11-27T09:30:00Z',
            endsAt: '2026-11-27T10:15:00Z',
            hasNote: true,
            type,
            checkInInterval: null,
          },
        },
      });
    const rows = [
      onVisit(7, 'Ann Lone', 'ann', { id: 't1', name: 'Home visit, high risk' }),
      onVisit(8, 'Bo Field', 'bo', null),
      row({ id: 9, name: 'Cy Clear', username: 'cy' }),
    ];
    renderTable({ rows, showVisits: true });
    // A winter day: London keeps UTC.
    const ann = within(rowOf('Ann Lone')).getByTestId('worker-visit');
    expect(ann.textContent).toBe('On a visit: 12 Mill Lane until 10:15 Home visit, high risk');
    expect(within(ann).getByTestId('worker-visit-type').textContent).toBe('Home visit, high risk');
    expect(within(rowOf('Bo Field')).getByTestId('worker-visit').textContent).toBe('On a visit: 12 Mill Lane until 10:15');
    expect(within(rowOf('Cy Clear')).queryByTestId('worker-visit')).toBeNull();
    cleanup();
    renderTable({ rows });
    expect(screen.queryAllByTestId('worker-visit')).toEqual([]);
  });
});
