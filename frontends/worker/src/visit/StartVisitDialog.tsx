import { useId, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, FieldError, Input, Label, Select, Textarea, useT } from '@lws/fe-ui';
import {
  VISIT_DEFAULT_MINUTES,
  VISIT_NOTE_MAX,
  VISIT_WHERE_MAX,
  minuteChoices,
  startVisitBody,
  visitLength,
  visitProblems,
  type StartVisitBody,
  type VisitField,
  type VisitType,
} from './visit-rules';

/**
 * How a start went: done (the dialog is closed by the screen), refused by the server naming a field
 * (or none) in its words, or failed otherwise (the screen has told the worker; the form stays filled).
 */
export type VisitStartOutcome = { status: 'done' } | { status: 'refused'; field: string | null; message: string } | { status: 'failed' };

export interface StartVisitDialogProps {
  open: boolean;
  /** The team's visit types; the type picker shows only when there are some. */
  visitTypes: readonly VisitType[];
  onStart(body: StartVisitBody): Promise<VisitStartOutcome>;
  onCancel(): void;
}

type Problems = Partial<Record<VisitField | 'form', string>>;

const FIELDS: readonly VisitField[] = ['visitTypeId', 'where', 'minutes', 'note'];
const isField = (name: string | null): name is VisitField => name !== null && (FIELDS as readonly string[]).includes(name);

/** The form itself: mounted each time the dialog opens, so every visit starts from an empty form. */
function StartVisitForm({ visitTypes, onStart, onCancel }: Omit<StartVisitDialogProps, 'open'>) {
  const t = useT();
  const ids = {
    type: useId(),
    typeError: useId(),
    where: useId(),
    whereHint: useId(),
    whereError: useId(),
    minutes: useId(),
    minutesError: useId(),
    note: useId(),
    noteHint: useId(),
    noteError: useId(),
  };
  const [typeId, setTypeId] = useState('');
  const [where, setWhere] = useState('');
  const [minutes, setMinutes] = useState(VISIT_DEFAULT_MINUTES);
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [busy, setBusy] = useState(false);
  const fields = {
    visitTypeId: useRef<HTMLSelectElement>(null),
    where: useRef<HTMLInputElement>(null),
    minutes: useRef<HTMLSelectElement>(null),
    note: useRef<HTMLTextAreaElement>(null),
  };

  /** Shows the problems, and takes the worker to the first field refused. */
  const refuse = (found: Problems) => {
    setProblems(found);
    const first = FIELDS.find((field) => found[field]);
    if (first) fields[first].current?.focus();
  };

  const chooseType = (id: string) => {
    setTypeId(id);
    setProblems((found) => ({ ...found, visitTypeId: undefined }));
    // A type starts the visit at its own length; the worker may still change it.
    const chosen = visitTypes.find((type) => type.id === id);
    if (chosen?.minutes) setMinutes(chosen.minutes);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const values = { where, minutes, note };
    const found = visitProblems(values);
    if (Object.keys(found).length > 0) return refuse(found);
    setProblems({});
    setBusy(true);
    try {
      const outcome = await onStart(startVisitBody(values, visitTypes.some((type) => type.id === typeId) ? typeId : null));
      if (outcome.status === 'refused') refuse(isField(outcome.field) ? { [outcome.field]: outcome.message } : { form: outcome.message });
    } finally {
      setBusy(false);
    }
  };

  const describedBy = (...list: (string | false)[]) => list.filter(Boolean).join(' ') || undefined;

  return (
    <form className="lws-form" noValidate aria-label={t('Start a visit')} onSubmit={(event) => void submit(event)} data-testid="visit-form">
      {visitTypes.length > 0 ? (
        <div className="lws-field">
          <Label htmlFor={ids.type}>{t('Visit type')}</Label>
          <Select
            ref={fields.visitTypeId}
            id={ids.type}
            value={typeId}
            disabled={busy}
            invalid={Boolean(problems.visitTypeId)}
            aria-describedby={describedBy(Boolean(problems.visitTypeId) && ids.typeError)}
            onChange={(event) => chooseType(event.target.value)}
            data-testid="visit-type"
          >
            <option value="">{t('No type')}</option>
            {visitTypes.map((type) => (
              <option key={type.id} value={type.id}>
                {type.minutes ? t('{{name}} ({{length}})', { name: type.name, length: visitLength(t, type.minutes) }) : type.name}
              </option>
            ))}
          </Select>
          <FieldError id={ids.typeError} testId="visit-type-error">
            {problems.visitTypeId ? t(problems.visitTypeId) : null}
          </FieldError>
        </div>
      ) : null}
      <div className="lws-field">
        <Label htmlFor={ids.where}>{t('Where is the visit?')}</Label>
        <Input
          ref={fields.where}
          id={ids.where}
          value={where}
          maxLength={VISIT_WHERE_MAX}
          autoComplete="off"
          readOnly={busy}
          invalid={Boolean(problems.where)}
          aria-describedby={describedBy(ids.whereHint, Boolean(problems.where) && ids.whereError)}
          onChange={(event) => setWhere(event.target.value)}
          data-testid="visit-where"
        />
        <p id={ids.whereHint} className="lws-field-hint">
          {t('An address or a location')}
        </p>
        <FieldError id={ids.whereError} testId="visit-where-error">
          {problems.where ? t(problems.where) : null}
        </FieldError>
      </div>
      <div className="lws-field">
        <Label htmlFor={ids.minutes}>{t('How long?')}</Label>
        <Select
          ref={fields.minutes}
          id={ids.minutes}
          value={String(minutes)}
          disabled={busy}
          invalid={Boolean(problems.minutes)}
          aria-describedby={describedBy(Boolean(problems.minutes) && ids.minutesError)}
          onChange={(event) => setMinutes(Number(event.target.value))}
          data-testid="visit-minutes"
        >
          {minuteChoices(minutes, visitTypes.find((type) => type.id === typeId)?.minutes).map((choice) => (
            <option key={choice} value={String(choice)}>
              {visitLength(t, choice)}
            </option>
          ))}
        </Select>
        <FieldError id={ids.minutesError} testId="visit-minutes-error">
          {problems.minutes ? t(problems.minutes) : null}
        </FieldError>
      </div>
      <div className="lws-field">
        <Label htmlFor={ids.note}>{t('Sealed note (optional)')}</Label>
        <Textarea
          ref={fields.note}
          id={ids.note}
          value={note}
          maxLength={VISIT_NOTE_MAX}
          readOnly={busy}
          invalid={Boolean(problems.note)}
          aria-describedby={describedBy(ids.noteHint, Boolean(problems.note) && ids.noteError)}
          onChange={(event) => setNote(event.target.value)}
          data-testid="visit-note"
        />
        <p id={ids.noteHint} className="lws-field-hint">
          {t('Only shown to the people handling an alarm of this visit.')}
        </p>
        <FieldError id={ids.noteError} testId="visit-note-error">
          {problems.note ? t(problems.note) : null}
        </FieldError>
      </div>
      {problems.form ? (
        <Alert variant="error" title={t('Visit not started')} data-testid="visit-form-error">
          <p>{t(problems.form)}</p>
        </Alert>
      ) : null}
      <div className="lws-dialog__footer">
        <Button variant="outline" onClick={onCancel} disabled={busy} data-testid="visit-cancel">
          {t('Cancel')}
        </Button>
        <Button type="submit" busy={busy} data-testid="visit-submit">
          {busy ? t('Starting visit...') : t('Start visit')}
        </Button>
      </div>
    </form>
  );
}

/**
 * 'Start a visit': where, how long, an optional visit type of the worker's team (which sets the
 * length) and an optional note, sealed until an alarm of the visit opens. The form is checked as the
 * server checks it before it is sent; the server's refusal of a field is shown on that field.
 */
export function StartVisitDialog({ open, visitTypes, onStart, onCancel }: StartVisitDialogProps) {
  const t = useT();
  // While a start is in flight, the dialog stays: closing it would hide how the start went.
  const busy = useRef(false);
  const start = async (body: StartVisitBody) => {
    busy.current = true;
    try {
      return await onStart(body);
    } finally {
      busy.current = false;
    }
  };
  const cancel = () => {
    if (!busy.current) onCancel();
  };
  return (
    <Dialog
      open={open}
      onClose={cancel}
      title={t('Start a visit')}
      description={t('End the visit with your PIN before its time runs out, or your monitors are alerted.')}
      data-testid="visit-dialog"
    >
      <StartVisitForm visitTypes={visitTypes} onStart={start} onCancel={cancel} />
    </Dialog>
  );
}
