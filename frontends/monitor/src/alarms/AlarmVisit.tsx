import { useId, useRef, useState } from 'react';
import { Button, failureMessage, msg, useT } from '@lws/fe-ui';
import { revealVisitNote, type Alarm } from '@lws/fe-ui/alarms';
import type { Visit } from '@lws/fe-ui/shifts';
import { requestTime } from '../checkin-requests/checkin-requests';

/** The sealed note as this monitor has it: never read, being read, read, or refused (the server's words). */
type NoteRead = { state: 'sealed' } | { state: 'reading' } | { state: 'read'; text: string } | { state: 'failed'; message: string };

/**
 * The timed visit an alarm opened on: where, its type, when it started and was due to end, and its
 * sealed note, read only when the monitor asks for it (the server logs who read it). The note is
 * kept in this component alone: it is never cached, and leaves the screen with the alarm's row.
 */
export function AlarmVisit({ alarm, visit, reference }: { alarm: Alarm; visit: Visit; reference: Date }) {
  const t = useT();
  const headingId = useId();
  const hintId = useId();
  const noteHeadingId = useId();
  const [note, setNote] = useState<NoteRead>({ state: 'sealed' });
  // Each read is logged against the monitor: a second press while one is in flight sends nothing.
  const reading = useRef(false);

  const reveal = async () => {
    if (reading.current) return;
    reading.current = true;
    setNote({ state: 'reading' });
    try {
      setNote({ state: 'read', text: await revealVisitNote(alarm.id) });
    } catch (e) {
      console.error('Reading the sealed visit note failed', e);
      setNote({ state: 'failed', message: t(failureMessage(e, msg('The sealed note could not be read. Please try again.'))) });
    } finally {
      reading.current = false;
    }
  };

  return (
    <section aria-labelledby={headingId} data-testid="alarm-visit" data-visit-id={visit.id}>
      <strong id={headingId}>{t('Visit')}</strong>
      <div data-testid="alarm-visit-where">{t('Visit to {{where}}', { where: visit.where })}</div>
      {visit.type ? (
        <div className="lws-muted" data-testid="alarm-visit-type">
          {visit.type.name}
        </div>
      ) : null}
      <div className="lws-muted" data-testid="alarm-visit-times">
        {t('Started {{start}}, due to end {{end}}', {
          start: requestTime(visit.startedAt, reference),
          end: requestTime(visit.endsAt, reference),
        })}
      </div>
      {visit.hasNote ? (
        note.state === 'read' ? (
          <section className="lws-alert lws-alert--warning" aria-labelledby={noteHeadingId} data-testid="visit-note">
            <p className="lws-alert__title" id={noteHeadingId}>
              {t('Sealed note')}
            </p>
            <p className="lws-alarm-message__text" data-testid="visit-note-text">
              {note.text}
            </p>
          </section>
        ) : (
          <div>
            <Button
              size="sm"
              variant="outline"
              busy={note.state === 'reading'}
              onClick={() => void reveal()}
              aria-label={t('Read sealed note: {{name}}', { name: alarm.workerName })}
              aria-describedby={hintId}
              data-testid="reveal-visit-note"
            >
              {t('Read sealed note')}
            </Button>
            <p className="lws-field-hint" id={hintId}>
              {t('Your name is recorded on the activity log when you read it.')}
            </p>
            {note.state === 'failed' ? (
              <p className="lws-field-error" role="alert" data-testid="visit-note-error">
                {note.message}
              </p>
            ) : null}
          </div>
        )
      ) : null}
    </section>
  );
}
