// The monitors' alarm panel, bundled into the admin and superadmin remotes.
export { AlarmsPanel } from './AlarmsPanel';
export type { AlarmsPanelProps } from './AlarmsPanel';
