// The alarms' data, read by the shell's banner and the monitors' panel (in '@lws/fe-monitor'):
// imported as '@lws/fe-ui/alarms', bundled into each container that uses it.
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
} from './alarms-api';
export { useOpenAlarms } from './useOpenAlarms';
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
