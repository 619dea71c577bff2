export { escalationService } from './service';
export { escalationConfigShape } from './config';
export { Scheduler, SINGLES_PER_PASS, URGENT_PER_PASS } from './deadlines/scheduler';
export { Auditor } from './deadlines/auditor';
export { OnCallGapNotice } from './on-call/gap-notice';
export { RequestTracker, ASKS_BEFORE_ALERT } from './alarms/request-tracker';
export { Reconciler, type RoundResult } from './reconcile/reconciler';
export { REPAIR_KINDS } from './reconcile/side';
