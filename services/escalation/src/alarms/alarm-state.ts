import type { AlarmRow } from '../db/schema';

/*
 * What an alarm's state means, named once: its steps, the monitors' commands, the worker's screen
 * and the request tracker ask the same questions of it, and must all get the same answer.
 */

/** A monitor has closed it: no command changes it any more, and nobody need be told of it. */
export const resolved = (a: Pick<AlarmRow, 'state'>): boolean => a.state === 'resolved';

/**
 * Its steps still run: not resolved, and not stopped (a late check-in, the shift's end, the
 * worker's "I'm safe"). AlarmsRepository.activeMissed selects the same in SQL.
 */
export const escalating = (a: Pick<AlarmRow, 'state' | 'stepsStoppedReason'>): boolean => !resolved(a) && !a.stepsStoppedReason;

/** A monitor has taken it (acknowledged it, perhaps resolved it since): a step "unless acknowledged" is skipped. */
export const acknowledged = (a: Pick<AlarmRow, 'state'>): boolean => a.state !== 'open';

/** Someone owns it: a monitor took it, or an emergency number accepted a call; until then monitors are reminded and the calls repeat. */
export const owned = (a: Pick<AlarmRow, 'state' | 'callAcceptedAt'>): boolean => acknowledged(a) || !!a.callAcceptedAt;
