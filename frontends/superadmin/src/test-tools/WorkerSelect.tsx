import { useEffect, useId } from 'react';
import { Label, Select, useT } from '@lws/fe-ui';
import type { Account } from '@lws/fe-monitor/accounts';

interface WorkerSelectProps {
  workers: Account[];
  value: number | null;
  onChange(id: number): void;
  label?: string;
  'data-testid'?: string;
}

/** Picks the worker a test acts on; the first worker is chosen until the user picks another. */
export function WorkerSelect({ workers, value, onChange, label, 'data-testid': testId }: WorkerSelectProps) {
  const t = useT();
  const id = useId();
  const first = workers[0]?.id;
  useEffect(() => {
    if (first !== undefined && (value === null || !workers.some((w) => w.id === value))) onChange(first);
  }, [first, value, workers, onChange]);

  if (workers.length === 0) return <p className="lws-muted">{t('No worker accounts yet. Create one in the Create User tab.')}</p>;
  return (
    <div className="lws-field">
      <Label htmlFor={id}>{label ?? t('Test user')}</Label>
      <Select id={id} value={value ?? ''} onChange={(event) => onChange(Number(event.target.value))} data-testid={testId}>
        {workers.map((w) => (
          <option key={w.id} value={w.id}>
            {t('{{name}} ({{username}}, ID {{id}})', { name: w.name, username: w.username, id: w.id })}
          </option>
        ))}
      </Select>
    </div>
  );
}
