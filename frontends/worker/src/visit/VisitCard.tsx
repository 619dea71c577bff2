import { useEffect, useId, useRef, type RefObject } from 'react';
import { Badge, Button, Card, CardContent, CardHeader, formatTime, useT } from '@lws/fe-ui';
import type { Visit } from '@lws/fe-ui/shifts';

/**
 * What replaced the button the worker pressed (the visit's card after its start, the Start a visit
 * button after its end) takes the keyboard's and screen reader's focus, once the dialog has closed
 * (a modal dialog keeps the focus inside itself until then). `onFocused`: it has been moved.
 */
export interface FocusOnShow {
  focusOnShow?: boolean;
  onFocused?(): void;
}

function useFocusOnShow(ref: RefObject<HTMLElement | null>, { focusOnShow = false, onFocused }: FocusOnShow) {
  const done = useRef(onFocused);
  done.current = onFocused;
  useEffect(() => {
    if (!focusOnShow) return;
    const timer = setTimeout(() => {
      ref.current?.focus();
      done.current?.();
    }, 0);
    return () => clearTimeout(timer);
  }, [ref, focusOnShow]);
}

/**
 * On shift, with no visit on: the way to start one. Secondary to CHECK IN and the emergency action,
 * it sits below them.
 */
export function StartVisitCard({ onStart, ...focus }: { onStart(): void } & FocusOnShow) {
  const t = useT();
  const hintId = useId();
  const button = useRef<HTMLButtonElement>(null);
  useFocusOnShow(button, focus);
  return (
    <Card data-testid="start-visit-card">
      <CardContent>
        <Button ref={button} variant="outline" block onClick={onStart} aria-describedby={hintId} data-testid="start-visit-button">
          {t('Start a visit')}
        </Button>
        <p id={hintId} className="lws-field-hint">
          {t('For a risky visit: set how long it lasts, and your monitors are alerted if you do not end it in time.')}
        </p>
      </CardContent>
    </Card>
  );
}

/**
 * The visit under way: where, its type, when it ends (the worker's deadline when sooner than the
 * regular one) and whether a sealed note was left; End visit asks for the PIN. Never the note itself.
 */
export function VisitCard({ visit, onEnd, ...focus }: { visit: Visit; onEnd(): void } & FocusOnShow) {
  const t = useT();
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  useFocusOnShow(title, focus);
  return (
    <section className="lws-card" aria-labelledby={titleId} data-testid="visit-card" data-visit-id={visit.id}>
      <CardHeader className="lws-card__header--row">
        {/* CardTitle's heading, which the focus can be moved to. */}
        <h2 ref={title} id={titleId} className="lws-card__title" tabIndex={-1} data-testid="visit-card-where">
          {t('On a visit: {{where}}', { where: visit.where })}
        </h2>
        {visit.type ? (
          <Badge variant="info" data-testid="visit-card-type">
            {visit.type.name}
          </Badge>
        ) : null}
      </CardHeader>
      <CardContent>
        <p data-testid="visit-card-ends">
          <time dateTime={visit.endsAt}>{t('Ends at {{time}}', { time: formatTime(visit.endsAt) })}</time>
        </p>
        {visit.hasNote ? (
          <p className="lws-muted" data-testid="visit-card-note">
            {t('Sealed note kept')}
          </p>
        ) : null}
        <p className="lws-field-hint">{t('End the visit with your PIN before its time runs out, or your monitors are alerted.')}</p>
        <div className="lws-actions lws-actions--spaced">
          <Button block onClick={onEnd} data-testid="end-visit-button">
            {t('End visit')}
          </Button>
        </div>
      </CardContent>
    </section>
  );
}
