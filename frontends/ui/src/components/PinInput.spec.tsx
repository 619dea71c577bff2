/** @jest-environment jsdom */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eraseAt, PIN_MASK, PinInput, typeInto } from './PinInput';

/** A PIN field as a screen holds one, reporting every PIN and the completed one. */
function Harness({ initial = '', reveal = false, onComplete }: { initial?: string; reveal?: boolean; onComplete?: (pin: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="pin">Security PIN</label>
      <PinInput id="pin" value={value} onChange={setValue} onComplete={onComplete} reveal={reveal} data-testid="pin" />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        Clear
      </button>
    </>
  );
}

const boxes = () => screen.getAllByRole('textbox') as HTMLInputElement[];
const pin = () => screen.getByTestId('value').textContent;

afterEach(cleanup);

describe('PinInput: four real boxes', () => {
  it('is four inputs that open the number pad, never autofilled, the first one labelled', () => {
    render(<Harness />);
    expect(boxes()).toHaveLength(4);
    for (const box of boxes()) {
      expect(box).toHaveProperty('inputMode', 'numeric');
      expect(box.getAttribute('autocomplete')).toBe('off');
    }
    expect(screen.getByLabelText('Security PIN')).toBe(boxes()[0]);
    expect(boxes()[3].getAttribute('aria-label')).toBe('Digit 4 of 4');
  });

  it('typing fills each box in turn, moving on by itself, and reports the whole PIN once complete', async () => {
    const user = userEvent.setup();
    const completed = jest.fn();
    render(<Harness onComplete={completed} />);
    await user.click(boxes()[0]);
    await user.keyboard('48');
    expect(pin()).toBe('48');
    expect(document.activeElement).toBe(boxes()[2]);
    await user.keyboard('21');
    expect(pin()).toBe('4821');
    expect(completed).toHaveBeenCalledTimes(1);
    expect(completed).toHaveBeenCalledWith('4821');
    // Masked: each box shows a dot, never the digit.
    expect(boxes().map((b) => b.value)).toEqual([PIN_MASK, PIN_MASK, PIN_MASK, PIN_MASK]);
  });

  it('clicking the first box and typing again replaces the PIN instead of adding to it (12 then 4821 is 4821)', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('12');
    await user.click(boxes()[0]);
    await user.keyboard('4821');
    expect(pin()).toBe('4821');
  });

  it('ignores anything but digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('a1-b2 ');
    expect(pin()).toBe('12');
  });

  it('backspace clears the box and goes back; in an empty box it clears the one before', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('123');
    expect(document.activeElement).toBe(boxes()[3]);
    await user.keyboard('{Backspace}');
    expect(pin()).toBe('12');
    expect(document.activeElement).toBe(boxes()[2]);
    await user.keyboard('{Backspace}{Backspace}');
    expect(pin()).toBe('');
    expect(document.activeElement).toBe(boxes()[0]);
    await user.keyboard('{Backspace}');
    expect(pin()).toBe('');
  });

  it('a paste in any box fills all the boxes from the first, keeping only digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('7');
    fireEvent.paste(boxes()[1], { clipboardData: { getData: () => '9-8-7-6-5' } });
    expect(pin()).toBe('9876');
  });

  it('a box past the digits so far hands focus to the first empty box: a PIN has no gaps', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[3]);
    expect(document.activeElement).toBe(boxes()[0]);
    await user.keyboard('5');
    await user.click(boxes()[3]);
    expect(document.activeElement).toBe(boxes()[1]);
  });

  it('arrows move between the boxes, and a digit typed in a filled box replaces only that one', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('1234');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(boxes()[1]);
    await user.keyboard('9');
    expect(pin()).toBe('1934');
    expect(document.activeElement).toBe(boxes()[2]);
  });

  it('shows the digits when asked (a PIN being set)', async () => {
    const user = userEvent.setup();
    render(<Harness reveal />);
    await user.click(boxes()[0]);
    await user.keyboard('2580');
    expect(boxes().map((b) => b.value)).toEqual(['2', '5', '8', '0']);
  });

  it('a whole PIN entered into the labelled box at once (autofill, a test tool) fills every box', () => {
    render(<Harness />);
    fireEvent.change(boxes()[0], { target: { value: '1357' } });
    expect(pin()).toBe('1357');
  });

  it('when the screen clears the PIN (a refused attempt), focus goes back to the first box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(boxes()[0]);
    await user.keyboard('123');
    act(() => {
      fireEvent.click(screen.getByText('Clear'));
    });
    // The Clear button took focus; entering the field again starts at the first box.
    await user.click(boxes()[2]);
    expect(document.activeElement).toBe(boxes()[0]);
    expect(boxes().map((b) => b.value)).toEqual(['', '', '', '']);
  });
});

describe('PinInput rules', () => {
  it('typeInto replaces from the box typed in, and never leaves a gap', () => {
    expect(typeInto('12', 0, '4821', 4)).toBe('4821');
    expect(typeInto('1234', 1, '9', 4)).toBe('1934');
    expect(typeInto('1', 3, '5', 4)).toBe('15');
    expect(typeInto('12', 1, 'x', 4)).toBe('12');
  });

  it('eraseAt removes the box’s digit, or the one before from an empty box', () => {
    expect(eraseAt('1234', 1)).toEqual({ value: '134', focus: 1 });
    expect(eraseAt('12', 2)).toEqual({ value: '1', focus: 1 });
    expect(eraseAt('', 0)).toEqual({ value: '', focus: 0 });
  });
});
