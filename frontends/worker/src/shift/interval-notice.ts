import { useEffect } from 'react';
import { useT, useToast } from '@lws/fe-ui';
import { intervalText, type Translate } from './interval-text';

const storageKey = (userId: number) => `lws.checkInInterval.${userId}`;

function read(userId: number): number | null {
  try {
    const v = Number(window.localStorage.getItem(storageKey(userId)));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

function write(userId: number, minutes: number) {
  try {
    window.localStorage.setItem(storageKey(userId), String(minutes));
  } catch (e) {
    // Private browsing may refuse storage: a change is then told only while the page is open.
    console.error('Storing the check-in interval failed', e);
  }
}

/** What the worker is told when the interval they check in at is no longer the one this device last showed them. */
export function intervalChangedNotice(minutes: number, t: Translate) {
  return {
    title: t('Check-in interval changed'),
    message: t('You now check in every {{interval}}, counted from your next check-in. Your current deadline stays as it is.', {
      interval: intervalText(t, minutes),
    }),
  };
}

/**
 * Tells the worker when their check-in interval changed: their team's policy moved it, they moved
 * team, or they changed it elsewhere. The interval this device last showed is kept per user, so a
 * change made while the app was closed is told when it next opens. `minutes` is null until known.
 */
export function useIntervalNotice(userId: number, minutes: number | null) {
  const { toast } = useToast();
  const t = useT();
  useEffect(() => {
    if (minutes === null) return;
    const shown = read(userId);
    write(userId, minutes);
    if (shown !== null && shown !== minutes) toast(intervalChangedNotice(minutes, t));
  }, [userId, minutes, toast, t]);
}
