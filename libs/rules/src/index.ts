/**
 * The check-in status rules of spec section 4 in one place, pure and clock-free: every caller
 * passes `now`. Used by the shifts service (dashboards) and the frontends (worker screen, tables).
 */
export * from './constants';
export * from './worker-status';
export * from './admin-status';
export * from './check-in-button';
export * from './time';
export * from './locations';
export * from './escalation-timeline';
