// The monitors' alarm screens. Imported as '@lws/fe-ui/alarms': bundled into each remote that uses
// it, while components come from the shared '@lws/fe-ui' singleton.
export { AlarmsPanel, ALARMS_POLL_MS } from './AlarmsPanel';
export { AlarmBanner, ALARM_SOUND_EVERY_MS } from './AlarmBanner';
export type { AlarmsPanelProps } from './AlarmsPanel';
export { KIND_LABELS, STATE_LABELS, VERDICT_LABELS, acknowledgeAlarm, alarmAge, alarmLabel, mapLink, fetchOpenAlarms, parseAlarm, parseAlarms, resolveAlarm } from './alarms-api';
export type { Alarm, AlarmKind, AlarmState, AlarmVerdict } from './alarms-api';
