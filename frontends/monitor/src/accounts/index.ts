// Account management screens shared by the admin and superadmin remotes.
// Imported as '@lws/fe-monitor/accounts': bundled into each remote that uses it,
// while everything it takes from '@lws/fe-ui' (auth, toasts, components)
// comes from the one shared singleton, so the shell's providers reach it.
export { WorkerDashboard, ACCOUNTS_POLL_MS, ADMIN_STALE_MS, REFRESH_SPINNER_MS, SUPERADMIN_STALE_MS } from './WorkerDashboard';
export { WorkerTable } from './WorkerTable';
export type { ResetKind, WorkerRow, WorkerTableProps } from './WorkerTable';
export { CreateUserCard, creationFailureText } from './CreateUserCard';
export { KiosksCard } from './KiosksCard';
export { OneTimeSecretDialog } from './OneTimeSecretDialog';
export type { OneTimeSecret } from './OneTimeSecretDialog';
export { OneTimeSecretAlert } from './OneTimeSecretAlert';
export type { OneTimeSecretAlertProps } from './OneTimeSecretAlert';
export { parseAccounts, parseCurrentKiosk, parseKiosks } from './accounts-api';
export type { Account, AccountContact, CurrentKiosk, Kiosk } from './accounts-api';
export type { CreateUserInput } from './CreateUserCard';
export { MonitorDashboard } from './MonitorDashboard';
export type { ExtraTab } from './MonitorDashboard';
