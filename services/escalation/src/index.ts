export { escalationService } from './service';
export { escalationConfigShape } from './config';
export { Scheduler } from './deadlines/scheduler';
export { Auditor } from './deadlines/auditor';
