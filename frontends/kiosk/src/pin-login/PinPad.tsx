import { Button, cx, useT } from '@lws/fe-ui';

export interface PinPadProps {
  length: number;
  value: string;
  disabled: boolean;
  invalid: boolean;
  onDigit(digit: string): void;
  onDelete(): void;
  onClear(): void;
}

const DIGIT_ROWS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

export function PinPad({ length, value, disabled, invalid, onDigit, onDelete, onClear }: PinPadProps) {
  const t = useT();
  return (
    <div>
      <div className="lws-pin-boxes" aria-hidden="true">
        {Array.from({ length }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a box stands for a digit position, and the row never reorders.
            key={i}
            className={cx('lws-pin-box', i < value.length && 'lws-pin-box--filled', invalid && 'lws-pin-box--error')}
            data-testid={`pin-box-${i}`}
            data-filled={i < value.length}
          >
            {i < value.length ? '•' : ''}
          </span>
        ))}
      </div>
      <p className="lws-visually-hidden" aria-live="polite">
        {t('{{entered}} of {{length}} digits entered', { entered: value.length, length })}
      </p>
      <div className="lws-pin-pad" role="group" aria-label={t('PIN pad')} data-testid="pin-pad">
        {DIGIT_ROWS.map((d) => (
          <Button key={d} variant="secondary" disabled={disabled} onClick={() => onDigit(d)} data-testid={`pin-digit-${d}`}>
            {d}
          </Button>
        ))}
        <Button
          variant="ghost"
          className="lws-pin-pad__action"
          disabled={disabled}
          onClick={onClear}
          aria-label={t('Clear PIN')}
          data-testid="pin-clear"
        >
          {t('Clear')}
        </Button>
        <Button variant="secondary" disabled={disabled} onClick={() => onDigit('0')} data-testid="pin-digit-0">
          0
        </Button>
        <Button
          variant="ghost"
          className="lws-pin-pad__action"
          disabled={disabled}
          onClick={onDelete}
          aria-label={t('Delete last digit')}
          data-testid="pin-delete"
        >
          {t('Delete')}
        </Button>
      </div>
    </div>
  );
}
