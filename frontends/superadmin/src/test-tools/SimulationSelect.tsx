import { useId } from 'react';
import { Label, Select, useT } from '@lws/fe-ui';
import { SIMULATION_MINUTES, simulationLabel } from './test-api';

export function SimulationSelect({
  value,
  onChange,
  'data-testid': testId,
}: {
  value: number;
  onChange(minutes: number): void;
  'data-testid'?: string;
}) {
  const t = useT();
  const id = useId();
  return (
    <div className="lws-field">
      <Label htmlFor={id}>{t('Check-in due in')}</Label>
      <Select id={id} value={String(value)} onChange={(event) => onChange(Number(event.target.value))} data-testid={testId}>
        {SIMULATION_MINUTES.map((m) => (
          <option key={m} value={String(m)}>
            {simulationLabel(m, t)}
          </option>
        ))}
      </Select>
    </div>
  );
}
