import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import {
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  failureField,
  failureMessage,
  formatTime,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { markAlarmMessagesSeen, replyToAlarm, type AlarmKind, type AlarmMessage, type AlarmThread } from '@lws/fe-ui/alarms';
import { useAlarmThread } from './useAlarmThread';

/** The longest message the server takes (`alarmMessageSchema` of '@lws/schemas'). */
export const MESSAGE_MAX = 500;

/**
 * The server's own check of a message (`alarmMessageSchema`), in its words, written out here: the
 * schema would bring zod and a forms library into the worker's bundle, which a cheap phone
 * downloads before its first check-in. A spec holds the two to the same answers.
 */
export function messageProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return msg('Write the message');
  if (trimmed.length > MESSAGE_MAX) return msg('The message must be at most 500 characters');
  return null;
}

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/**
 * Whether the page is in front of the worker. A phone in a pocket still reads the thread (the
 * stream wakes it), but has shown nobody anything: the SMS copy must still follow then.
 */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => !document.hidden,
    () => true,
  );
}

function MessageLine({ message }: { message: AlarmMessage }) {
  const t = useT();
  return (
    <li className="lws-alarm-message" data-testid="worker-message" data-from={message.from} data-message-id={message.id}>
      <div className="lws-alarm-message__meta">
        <strong>
          {message.from === 'worker' ? t('You') : message.byName ? t('From {{name}}', { name: message.byName }) : t('From your monitor')}
        </strong>{' '}
        <time dateTime={message.at} className="lws-muted">
          {formatTime(message.at)}
        </time>
      </div>
      <p className="lws-alarm-message__text" data-testid="worker-message-body">
        {message.text}
      </p>
    </li>
  );
}

function Thread({ thread, set, reload }: { thread: AlarmThread; set(thread: AlarmThread | null): void; reload(): void }) {
  const t = useT();
  const { toast } = useToast();
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const visible = usePageVisible();
  // The monitors' messages this screen has told the server it showed: each is told once.
  const told = useRef(new Set<string>());

  // Looked at with each read of the thread: one that failed to tell is told with the next.
  useEffect(() => {
    if (!visible) return;
    const ids = thread.messages.filter((m) => m.from === 'monitor' && m.seenAt === null && !told.current.has(m.id)).map((m) => m.id);
    if (ids.length === 0) return;
    for (const id of ids) told.current.add(id);
    markAlarmMessagesSeen()
      .then(set)
      .catch((e: unknown) => {
        // Until the server knows, the SMS copy is still due.
        console.error('Telling LWS the messages were shown failed', e);
        for (const id of ids) told.current.delete(id);
      });
  }, [visible, thread, set]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const problem = messageProblem(text);
    setError(problem);
    if (problem) return;
    setSending(true);
    try {
      set(await replyToAlarm(text.trim()));
      setText('');
    } catch (e) {
      console.error('Sending the message to the monitors failed', e);
      if (e instanceof ApiError && e.status === 400 && (failureField(e) ?? 'text') === 'text') {
        setError(failureMessage(e, msg('Write the message')));
      } else if (e instanceof ApiError && e.status === 409) {
        toast({
          title: t('Not sent'),
          message: t(failureMessage(e, msg('Your message could not be sent. Please try again.'))),
          type: 'warning',
        });
        reload();
      } else {
        toast({ title: t('Not sent'), message: t('Your message could not be sent. Please try again.'), type: 'error' });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Card className="lws-alarm-thread" data-testid="worker-messages" data-kind={thread.kind}>
      <CardHeader>
        <CardTitle>{t('Messages')}</CardTitle>
        <CardDescription>{t('Your monitors can write to you here about your alarm, and you can answer them.')}</CardDescription>
      </CardHeader>
      <CardContent className="lws-alarm-messages">
        {thread.messages.length === 0 ? (
          <p className="lws-muted" data-testid="worker-messages-empty">
            {t('No messages yet')}
          </p>
        ) : (
          <ol className="lws-alarm-messages__list" aria-live="polite">
            {thread.messages.map((message) => (
              <MessageLine key={message.id} message={message} />
            ))}
          </ol>
        )}
        <form
          className="lws-alarm-message-form"
          noValidate
          onSubmit={(event) => void send(event)}
          aria-label={t('Message to your monitors')}
        >
          <Label htmlFor={inputId}>{t('Message to your monitors')}</Label>
          <div className="lws-alarm-message-form__row">
            <Input
              id={inputId}
              value={text}
              onChange={(event) => setText(event.target.value)}
              maxLength={MESSAGE_MAX}
              autoComplete="off"
              invalid={error !== null}
              aria-describedby={error ? errorId : undefined}
              readOnly={sending}
              data-testid="worker-message-text"
            />
            <Button type="submit" busy={sending} aria-label={t('Send message to the monitors')} data-testid="worker-message-send">
              {t('Send')}
            </Button>
          </div>
          <FieldError id={errorId} testId="worker-message-error">
            {error ? t(error) : null}
          </FieldError>
        </form>
      </CardContent>
    </Card>
  );
}

/**
 * The messages of the worker's open alarm of this kind, and their answer: on the emergency screen
 * for an emergency, above CHECK IN for a missed check-in. Nothing at all while there is none, or
 * while the thread cannot be read: the screens around it work the same without it.
 */
export function AlarmMessagesCard({ userId, kind }: { userId: number; kind: AlarmKind }) {
  const { thread, set, reload } = useAlarmThread(userId);
  if (!thread || thread.kind !== kind) return null;
  // A new alarm starts a new thread, with an empty form.
  return <Thread key={thread.alarmId} thread={thread} set={set} reload={() => void reload()} />;
}
