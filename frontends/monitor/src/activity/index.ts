// The monitors' activity log. Imported as '@lws/fe-monitor/activity': bundled into each remote that uses
// it, while components and the live stream come from the shared '@lws/fe-ui' singleton.
export { ActivityLogsCard, ACTIVITY_POLL_MS } from './ActivityLogsCard';
export { ACTIVITY_LABELS, ACTIVITY_PAGE_SIZE, activityLabel, activityVariant, fetchActivityPage, mergeEntries } from './activity-api';
export type { ActivityEntry, ActivityPage } from './activity-api';
