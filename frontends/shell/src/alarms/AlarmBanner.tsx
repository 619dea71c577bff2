import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, useAuth, useServerTimeEvery } from '@lws/fe-ui';
import { alarmAge, alarmLabel, useOpenAlarms, type Alarm } from '@lws/fe-ui/alarms';

/** The alert sounds again this often while an alarm waits for an owner. */
export const ALARM_SOUND_EVERY_MS = 10_000;
const TITLE_COUNT = /^\(\d+\) /;

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
 * Monitors cannot miss an alarm (issue 13): on every page an admin or the superadmin opens, while any
 * alarm in their scope waits for an owner (open, unacknowledged), a banner names the worker, the kind
 * and how long it has waited; the tab's title counts them; and a tone sounds every
 * ALARM_SOUND_EVERY_MS. Mute silences the alarms on screen until another opens. Read from the same
 * open-alarms list as the dashboard's panel, refreshed by the live stream (polled while it is down).
 */
export function AlarmBanner({ dashboardPath }: { dashboardPath: string }) {
  const { user } = useAuth();
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
  return (
    <div className="lws-alarm-banner" role="alert" data-testid="alarm-banner" data-count={count}>
      <div className="lws-alarm-banner__text">
        <strong data-testid="alarm-banner-worker">{first.workerName}</strong>
        {': '}
        <span data-testid="alarm-banner-kind">{alarmLabel(first)}</span>
        {', waiting '}
        <span data-testid="alarm-banner-age">{alarmAge(first.openedAt, now)}</span>
        {' for someone to take it'}
        {rest.length > 0 ? <span data-testid="alarm-banner-more">{` (and ${rest.length} more)`}</span> : null}
      </div>
      <div className="lws-actions">
        <a className="lws-btn lws-btn--sm lws-btn--primary" href={dashboardPath} data-testid="alarm-banner-open">
          Open alarms
        </a>
        {silent ? (
          <span className="lws-muted" data-testid="alarm-banner-muted">
            Muted until the next alarm
          </span>
        ) : (
          <Button size="sm" variant="outline" onClick={() => setMuted(new Set(waiting.map((a) => a.id)))} data-testid="alarm-banner-mute">
            Mute
          </Button>
        )}
      </div>
    </div>
  );
}
