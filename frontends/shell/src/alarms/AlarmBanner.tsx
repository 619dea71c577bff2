import { Children, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, useAuth, useServerTimeEvery, useT } from '@lws/fe-ui';
import { alarmAge, alarmLabel, useOpenAlarms } from '@lws/fe-ui/alarms';

/** The alert sounds again this often while an alarm waits for an owner. */
export const ALARM_SOUND_EVERY_MS = 10_000;
const TITLE_COUNT = /^\(\d+\) /;
/** Marks where a value goes in a translated sentence, so that each value keeps its own element whatever the language's word order. */
const SLOT = '\u0001';
const slot = (name: string) => `${SLOT}${name}${SLOT}`;

/** Two short tones through Web Audio: no file to fetch, and nothing at all where the browser has no audio. */
function beep(context: AudioContext): void {
  for (const [at, frequency] of [
    [0, 880],
    [0.25, 660],
  ] as const) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.value = 0.15;
    tone.connect(gain).connect(context.destination);
    tone.start(context.currentTime + at);
    tone.stop(context.currentTime + at + 0.18);
  }
}

/**
 * An alarm nobody has taken leaves a worker waiting for help, and a monitor may be on any page when it
 * opens: so on every page an admin or the superadmin opens, while any alarm in their scope waits for
 * an owner (open, unacknowledged), a banner names the worker, the kind and how long it has waited;
 * the tab's title counts them; and a tone sounds every
 * ALARM_SOUND_EVERY_MS. Mute silences the alarms on screen until another opens. Read from the same
 * open-alarms list as the dashboard's panel, refreshed by the live stream (polled while it is down).
 */
export function AlarmBanner({ dashboardPath }: { dashboardPath: string }) {
  const { user } = useAuth();
  const t = useT();
  const monitor = user?.role === 'admin' || user?.role === 'superadmin';
  // The banner keeps what it showed when a read fails; the dashboard's panel says when alarms cannot be read.
  const { data: open } = useOpenAlarms({ enabled: monitor });
  const waiting = useMemo(() => (open ?? []).filter((a) => a.state === 'open'), [open]);
  const [muted, setMuted] = useState<ReadonlySet<string>>(new Set());
  const now = useServerTimeEvery(15_000);
  const audio = useRef<AudioContext | null>(null);

  const count = monitor ? waiting.length : 0;
  // The tab's title counts them, whatever the page named it and whenever it names it (a page that
  // loads after the banner sets its own title later): the count is put back each time the title changes.
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(TITLE_COUNT, '');
      const next = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== next) document.title = next;
    };
    apply();
    const title = document.querySelector('title');
    if (!title) return;
    const observer = new MutationObserver(apply);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => observer.disconnect();
  }, [count]);
  useEffect(
    () => () => {
      document.title = document.title.replace(TITLE_COUNT, '');
    },
    [],
  );

  // Muted until another alarm opens: an alarm not yet heard unmutes.
  const silent = waiting.every((a) => muted.has(a.id));
  useEffect(() => {
    if (count === 0 || silent) return;
    const play = () => {
      try {
        audio.current ??= new AudioContext();
        void audio.current.resume().then(() => beep(audio.current!));
      } catch {
        // No audio here: the banner and the title still say it.
      }
    };
    play();
    const timer = window.setInterval(play, ALARM_SOUND_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [count, silent]);

  if (count === 0) return null;
  const [first, ...rest] = waiting;
  const worker = <strong data-testid="alarm-banner-worker">{first.workerName}</strong>;
  const kind = <span data-testid="alarm-banner-kind">{t(alarmLabel(first))}</span>;
  const age = <span data-testid="alarm-banner-age">{alarmAge(first.openedAt, now, t)}</span>;
  const values: Record<string, ReactNode> = { worker, kind, age };
  // Every other part is a slot's name; Children.toArray keys the parts by their place.
  const sentence = Children.toArray(
    t('{{worker}}: {{kind}}, waiting {{age}} for someone to take it', { worker: slot('worker'), kind: slot('kind'), age: slot('age') })
      .split(SLOT)
      .map((part, i) => (i % 2 === 1 && part in values ? values[part] : part)),
  );
  return (
    <div className="lws-alarm-banner" role="alert" data-testid="alarm-banner" data-count={count}>
      <div className="lws-alarm-banner__text">
        {sentence}
        {rest.length > 0 ? <span data-testid="alarm-banner-more"> {t('(and {{number}} more)', { number: rest.length })}</span> : null}
      </div>
      <div className="lws-actions">
        <a className="lws-btn lws-btn--sm lws-btn--primary" href={dashboardPath} data-testid="alarm-banner-open">
          {t('Open alarms')}
        </a>
        {silent ? (
          <span className="lws-muted" data-testid="alarm-banner-muted">
            {t('Muted until the next alarm')}
          </span>
        ) : (
          <Button size="sm" variant="outline" onClick={() => setMuted(new Set(waiting.map((a) => a.id)))} data-testid="alarm-banner-mute">
            {t('Mute')}
          </Button>
        )}
      </div>
    </div>
  );
}
