import { useMutation, useQueryClient } from '@tanstack/react-query';
import { failureMessage, formatDateTime, formatTime, msg, useT, useToast, type LiveSource } from '@lws/fe-ui';
import { askToCheckIn, type CheckInBatch } from '@lws/fe-ui/shifts';

export const CHECK_IN_REQUESTS_KEY = ['check-in-requests'] as const;

/** Read again this often only while the live stream is down: otherwise each answer arrives as it happens. */
export const CHECK_IN_REQUESTS_POLL_MS = 15_000;

/** The workers asked who have not answered yet, in any batch shown. */
export function waitingWorkers(batches: readonly CheckInBatch[] | undefined): Set<number> {
  return new Set((batches ?? []).flatMap((b) => b.workers.filter((w) => w.state === 'waiting').map((w) => w.userId)));
}

/**
 * A request opening or closing changes the card, and so does the check-in or the end of the shift
 * of a worker it waits for: that worker's own frame may come before the request's, and the card
 * should not wait for the second. Every other worker's check-in leaves it alone: in a large
 * organisation those come every few seconds.
 */
export function checkInRequestsLive(waiting: ReadonlySet<number>): LiveSource {
  return {
    types: ['checkin_request', 'worker'],
    when: (e) =>
      e.type === 'checkin_request' ||
      (e.type === 'worker' && waiting.has(e.data.userId) && (e.data.change === 'checked_in' || e.data.change === 'shift_ended')),
  };
}

/** Whom the monitor asks (a worker's or a team's id), with the name the toast says it by. */
export interface AskTarget {
  kind: 'worker' | 'team';
  id: number;
  name: string;
}

/** The London calendar day of an instant ("28 Nov 2026"). */
const londonDay = (iso: string) => formatDateTime(iso).split(', ')[0];

/** A time of the last 24 hours: the time of day alone ("10:05") today, with its date on another day. */
export function requestTime(iso: string, reference: Date): string {
  return londonDay(iso) === londonDay(reference.toISOString()) ? formatTime(iso) : formatDateTime(iso);
}

/**
 * Asks a worker, or everyone on shift in a team, to check in now. The new batch shows in the card
 * at once; a refusal (not on shift, nobody on shift, gone) is the server's own words, in a toast.
 */
export function useAskToCheckIn() {
  const client = useQueryClient();
  const { toast } = useToast();
  const t = useT();
  const mutation = useMutation({
    mutationFn: (target: AskTarget) => askToCheckIn(target.kind === 'worker' ? { userId: target.id } : { teamId: target.id }),
    onSuccess: (batch, target) => {
      client.setQueryData<CheckInBatch[]>(CHECK_IN_REQUESTS_KEY, (old) => [batch, ...(old ?? []).filter((b) => b.id !== batch.id)]);
      void client.invalidateQueries({ queryKey: CHECK_IN_REQUESTS_KEY });
      const time = formatTime(batch.dueAt);
      toast({
        title: t('Check-in requested'),
        message:
          target.kind === 'worker'
            ? t('{{name}} has been asked to check in by {{time}}.', { name: target.name, time })
            : t('Everyone on shift in {{team}} has been asked to check in by {{time}}.', { team: target.name, time }),
      });
    },
    onError: (e) => {
      console.error('Asking to check in failed', e);
      toast({
        title: t('Check-in not requested'),
        message: t(failureMessage(e, msg('The request could not be sent. Please try again.'))),
        type: 'error',
      });
    },
  });
  const pending = mutation.isPending ? mutation.variables : undefined;
  return {
    ask: (target: AskTarget) => mutation.mutate(target),
    /** Whether this worker or team is being asked now, so only that button shows as busy. */
    isAsking: (kind: AskTarget['kind'], id: number) => pending?.kind === kind && pending.id === id,
  };
}
