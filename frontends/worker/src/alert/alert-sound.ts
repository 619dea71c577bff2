/** Spec section 7: the alert sound is checked with HEAD; a built-in sound plays when it is missing. */
export const ALERT_SOUND_URL = '/sounds/alert.mp3';
/** Spec section 9. */
export const ALERT_VOLUME = 0.7;

let fileAvailable: Promise<boolean> | null = null;
let context: AudioContext | null = null;

/**
 * Asks once per page whether the sound file exists. The Accept header keeps the site's page
 * fallback (which answers any unknown path a browser navigates to) from passing for a sound.
 */
function soundFileAvailable(): Promise<boolean> {
  fileAvailable ??= fetch(ALERT_SOUND_URL, { method: 'HEAD', cache: 'no-store', headers: { Accept: 'audio/mpeg' } })
    .then((res) => res.ok && (res.headers.get('content-type') ?? '').startsWith('audio/'))
    .catch(() => false);
  return fileAvailable;
}

function audioContext(): AudioContext | null {
  if (context) return context;
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

/**
 * Browsers only let a page make sound after the user touched it. Called on the worker's first
 * tap or key press, so a later alert, which no tap precedes, can still be heard.
 */
export function unlockAlertSound(): void {
  try {
    const ctx = audioContext();
    if (ctx && ctx.state === 'suspended') void ctx.resume().catch((e: unknown) => console.error('Enabling sound failed', e));
  } catch (e) {
    console.error('Enabling sound failed', e);
  }
}

/** The built-in alert: three short high beeps, loud enough to notice and short enough not to alarm bystanders. */
function playBuiltIn(): void {
  const ctx = audioContext();
  if (!ctx) throw new Error('This browser cannot play sound');
  // Not awaited: without a tap first the browser keeps the context suspended, and the beeps then
  // sound when the worker next touches the page rather than never.
  if (ctx.state === 'suspended') {
    ctx.resume().catch((e: unknown) => console.error('Playing the check-in alert sound failed', e));
    console.warn('The check-in alert sound waits for the first tap on the page');
  }
  const gain = ctx.createGain();
  gain.gain.value = ALERT_VOLUME;
  gain.connect(ctx.destination);
  const start = ctx.currentTime;
  for (let i = 0; i < 3; i++) {
    const beep = ctx.createOscillator();
    beep.type = 'sine';
    beep.frequency.value = 880;
    beep.connect(gain);
    beep.start(start + i * 0.4);
    beep.stop(start + i * 0.4 + 0.25);
  }
}

/** Plays the 5-minute alert. A sound that cannot play is only logged (spec section 8): the countdown and the reminders still stand. */
export async function playAlertSound(): Promise<void> {
  try {
    if (await soundFileAvailable()) {
      const audio = new Audio(ALERT_SOUND_URL);
      audio.volume = ALERT_VOLUME;
      await audio.play();
      return;
    }
    playBuiltIn();
  } catch (e) {
    console.error('Playing the check-in alert sound failed', e);
  }
}
