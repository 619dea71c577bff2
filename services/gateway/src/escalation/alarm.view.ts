import type { AlarmMessageView, AlarmView } from '@lws/contracts';
import { browserVisit } from '../shifts/worker.view';

/** A message of an alarm's thread as the browser sees it. */
export function browserMessage(m: AlarmMessageView) {
  return { id: m.id, from: m.from, byName: m.byName ?? null, text: m.text, at: m.at, seenAt: m.seenAt ?? null };
}

/** An alarm as the browser sees it: every field present, null where there is nothing yet. */
export function browserAlarm(a: AlarmView) {
  return {
    id: a.id,
    userId: a.userId,
    workerName: a.workerName ?? null,
    location: a.location ?? null,
    kind: a.kind,
    state: a.state,
    openedAt: a.openedAt,
    dueAt: a.dueAt ?? null,
    acknowledgedBy: a.acknowledgedBy ?? null,
    acknowledgedByName: a.acknowledgedByName ?? null,
    acknowledgedAt: a.acknowledgedAt ?? null,
    acknowledgedViaToken: a.acknowledgedViaToken ?? null,
    resolvedBy: a.resolvedBy ?? null,
    resolvedByName: a.resolvedByName ?? null,
    resolvedAt: a.resolvedAt ?? null,
    resolvedViaToken: a.resolvedViaToken ?? null,
    verdict: a.verdict ?? null,
    severity: a.severity ?? null,
    reason: a.reason ?? null,
    note: a.note ?? null,
    lateCheckInAt: a.lateCheckInAt ?? null,
    duress: a.duress === true,
    workerSafeAt: a.workerSafeAt ?? null,
    shiftNote: a.shiftNote ?? null,
    visit: a.visit ? browserVisit(a.visit) : null,
    lastPosition: a.lastPosition
      ? { lat: a.lastPosition.lat, lng: a.lastPosition.lng, accuracy: a.lastPosition.accuracyM ?? null, at: a.lastPosition.at }
      : null,
    history: a.history,
    messages: a.messages.map(browserMessage),
  };
}
