// The alarms' data, read by the shell's banner and the monitors' panel (in '@lws/fe-monitor'), and
// the worker's thread of messages during their alarm: imported as '@lws/fe-ui/alarms', bundled into
// each container that uses it.
export {
  ALARMS_POLL_MS,
  KIND_LABELS,
  STATE_LABELS,
  VERDICT_LABELS,
  SEVERITY_LABELS,
  FALSE_REASON_LABELS,
  acknowledgeAlarm,
  alarmAge,
  alarmLabel,
  mapLink,
  fetchOpenAlarms,
  parseAlarm,
  parseAlarms,
  resolveAlarm,
  revealVisitNote,
  sendAlarmMessage,
} from './alarms-api';
export {
  ALARM_THREAD_PATH,
  fetchAlarmThread,
  markAlarmMessagesSeen,
  parseAlarmMessage,
  parseAlarmMessages,
  parseAlarmThread,
  replyToAlarm,
} from './alarm-thread-api';
export { OPEN_ALARMS_KEY, useOpenAlarms } from './useOpenAlarms';
export type {
  Alarm,
  AlarmKind,
  AlarmOutcome,
  AlarmState,
  AlarmVerdict,
  FalseAlarmReason,
  IncidentSeverity,
  Translate,
} from './alarms-api';
export type { AlarmMessage, AlarmMessageFrom, AlarmThread } from './alarm-thread-api';
