import type { EventMap } from '@lws/contracts';
import type { PendingEvent } from '@lws/messaging';
import type { Emit } from '@lws/platform';
import type { Delivery } from './deliveries.repository';

/** notifications.message.sent.v1 for the row as it now stands. */
export function emitMessageStatus(emit: Emit, row: Delivery): Promise<unknown> {
  return emit('notifications.message.sent.v1', messageStatus(row));
}

/** The same event for Emit.many: the statuses of many rows in one outbox statement. */
export function messageStatusEvent(row: Delivery): PendingEvent {
  return { subject: 'notifications.message.sent.v1', data: messageStatus(row) };
}

function messageStatus(row: Delivery): EventMap['notifications.message.sent.v1'] {
  return {
    messageId: row.id,
    channel: row.channel,
    to: row.to,
    status: row.status,
    ...(row.userId !== null ? { userId: row.userId } : {}),
    ...(row.requestId !== null ? { requestId: row.requestId } : {}),
    ...(row.alarmId !== null ? { alarmId: row.alarmId } : {}),
    purpose: row.purpose,
    ...(row.errorCode !== null ? { errorCode: row.errorCode } : {}),
    ...(row.errorMessage !== null ? { errorMessage: row.errorMessage } : {}),
    ...(row.providerSid !== null ? { providerSid: row.providerSid } : {}),
  };
}

/** Stands in for the call SID of a call the provider never accepted. */
export const UNPLACED_CALL_SID = 'unplaced';

/**
 * notifications.call.completed.v1, once per call an escalation request asked for (the caller has
 * just set the row's outcome, which happens once). Test calls have no request and publish nothing.
 */
export function emitCallCompleted(emit: Emit, row: Delivery, at: Date): Promise<unknown> | undefined {
  if (row.requestId === null || row.outcome === null) return undefined;
  return emit('notifications.call.completed.v1', {
    messageId: row.id,
    requestId: row.requestId,
    ...(row.alarmId !== null ? { alarmId: row.alarmId } : {}),
    ...(row.userId !== null ? { userId: row.userId } : {}),
    to: row.to,
    callSid: row.providerSid ?? UNPLACED_CALL_SID,
    outcome: row.outcome as EventMap['notifications.call.completed.v1']['outcome'],
    at: at.toISOString(),
    purpose: row.purpose,
  });
}
