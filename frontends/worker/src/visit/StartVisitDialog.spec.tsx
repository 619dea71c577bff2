/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, screen, within } from '@testing-library/react';
import { renderScreen, resetScreen, supportDialogs } from '@lws/fe-ui/testing';
import { StartVisitDialog, type VisitStartOutcome } from './StartVisitDialog';
import type { StartVisitBody, VisitType } from './visit-rules';

const ANN = { id: 7, username: 'ann', name: 'Ann Lone', role: 'worker' };

const HIGH_RISK: VisitType = { id: 'hv-high', name: 'Home visit, high risk', minutes: 20, checkInInterval: 10, smsToo: true };
const LONG: VisitType = { id: 'assess', name: 'Assessment', minutes: 90, checkInInterval: null, smsToo: false };

beforeAll(supportDialogs);
afterEach(resetScreen);

/** The dialog, open, as the worker's screen shows it; resolves once the session check behind it has settled. */
async function renderForm(visitTypes: VisitType[] = [], outcome: VisitStartOutcome = { status: 'done' }) {
  const onStart = jest.fn(async (_body: StartVisitBody): Promise<VisitStartOutcome> => outcome);
  const onCancel = jest.fn();
  const rendered = renderScreen(<StartVisitDialog open visitTypes={visitTypes} onStart={onStart} onCancel={onCancel} />, {
    signedInAs: ANN,
  });
  await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return { ...rendered, onStart, onCancel };
}

const minutes = () => screen.getByTestId('visit-minutes') as HTMLSelectElement;

describe('the Start a visit form', () => {
  it('refuses a visit without a place, naming the field, and sends nothing', async () => {
    const { user, onStart } = await renderForm();

    await user.click(screen.getByTestId('visit-submit'));

    const where = screen.getByLabelText('Where is the visit?');
    expect(screen.getByTestId('visit-where-error').textContent).toBe('Say where the visit is: an address or a location');
    expect(where.getAttribute('aria-invalid')).toBe('true');
    expect(where.getAttribute('aria-describedby')).toContain(screen.getByTestId('visit-where-error').id);
    expect(document.activeElement).toBe(where);
    expect(onStart).not.toHaveBeenCalled();

    // Spaces alone are no place either.
    await user.type(where, '   ');
    await user.click(screen.getByTestId('visit-submit'));
    expect(screen.getByTestId('visit-where-error').textContent).toBe('Say where the visit is: an address or a location');
    expect(onStart).not.toHaveBeenCalled();
  });

  it('labels every field, offers the lengths from 15 minutes to 2 hours, 30 minutes first, and no type picker without types', async () => {
    await renderForm();

    expect(screen.queryByTestId('visit-type')).toBeNull();
    expect(screen.getByLabelText('Where is the visit?')).toBe(screen.getByTestId('visit-where'));
    expect(screen.getByLabelText('How long?')).toBe(minutes());
    expect(screen.getByLabelText('Sealed note (optional)')).toBe(screen.getByTestId('visit-note'));
    expect(screen.getByText('An address or a location')).toBeTruthy();
    expect(screen.getByText('Only shown to the people handling an alarm of this visit.')).toBeTruthy();
    expect(Array.from(minutes().options, (o) => o.textContent)).toEqual([
      '15 minutes',
      '30 minutes',
      '45 minutes',
      '1 hour',
      '1 h 30 min',
      '2 hours',
    ]);
    expect(minutes().value).toBe('30');
  });

  it("prefills the length with the chosen type's, which the worker may still change, and sends the type", async () => {
    const { user, onStart } = await renderForm([HIGH_RISK, LONG]);

    const type = screen.getByLabelText('Visit type') as HTMLSelectElement;
    expect(type.value).toBe('');
    expect(Array.from(type.options, (o) => o.textContent)).toEqual([
      'No type',
      'Home visit, high risk (20 minutes)',
      'Assessment (1 h 30 min)',
    ]);

    await user.selectOptions(type, HIGH_RISK.id);
    expect(minutes().value).toBe('20');
    expect(within(minutes()).getByRole('option', { selected: true }).textContent).toBe('20 minutes');

    await user.selectOptions(type, LONG.id);
    expect(minutes().value).toBe('90');

    // Back to no type: the length stays as it was.
    await user.selectOptions(type, '');
    expect(minutes().value).toBe('90');

    await user.selectOptions(type, HIGH_RISK.id);
    await user.selectOptions(minutes(), '45');
    await user.type(screen.getByTestId('visit-where'), '  Flat 3, 12 Oak Street ');
    await user.type(screen.getByTestId('visit-note'), 'Client known to be aggressive.{Enter}Dog.');
    await user.click(screen.getByTestId('visit-submit'));

    expect(onStart.mock.calls).toEqual([
      [{ where: 'Flat 3, 12 Oak Street', minutes: 45, note: 'Client known to be aggressive.\nDog.', visitTypeId: HIGH_RISK.id }],
    ]);
  });

  it('sends neither a type nor a note when none is given', async () => {
    const { user, onStart } = await renderForm([HIGH_RISK]);

    await user.type(screen.getByTestId('visit-where'), 'Mill Lane car park');
    await user.click(screen.getByTestId('visit-submit'));

    expect(onStart.mock.calls).toEqual([[{ where: 'Mill Lane car park', minutes: 30 }]]);
  });

  it("shows the server's refusal on the field it names", async () => {
    const { user } = await renderForm([], {
      status: 'refused',
      field: 'note',
      message: 'The note must be text of at most 1000 characters',
    });

    await user.type(screen.getByTestId('visit-where'), 'Flat 3');
    await user.type(screen.getByTestId('visit-note'), 'Dog');
    await user.click(screen.getByTestId('visit-submit'));

    expect((await screen.findByTestId('visit-note-error')).textContent).toBe('The note must be text of at most 1000 characters');
    expect(screen.getByTestId('visit-note').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('visit-where-error')).toBeNull();
    expect(screen.queryByTestId('visit-form-error')).toBeNull();
  });

  it('shows a refusal that names no field of the form above the buttons', async () => {
    const { user } = await renderForm([], { status: 'refused', field: null, message: 'Please check the form and try again.' });

    await user.type(screen.getByTestId('visit-where'), 'Flat 3');
    await user.click(screen.getByTestId('visit-submit'));

    expect((await screen.findByTestId('visit-form-error')).textContent).toBe('Visit not startedPlease check the form and try again.');
  });

  it('closes on Cancel', async () => {
    const { user, onCancel, onStart } = await renderForm();

    await user.click(screen.getByTestId('visit-cancel'));

    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onStart).not.toHaveBeenCalled();
  });
});
