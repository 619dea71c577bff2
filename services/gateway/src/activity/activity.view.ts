import type { ActivityEntryView } from '@lws/contracts';

/** An activity log entry as the browser sees it (spec section 3, plus the label to show). */
export function browserEntry(e: ActivityEntryView) {
  return {
    id: e.id,
    userId: e.userId ?? null,
    username: e.username,
    type: e.type,
    label: e.label,
    timestamp: e.at,
    details: e.details,
    location: e.location ?? null,
  };
}
