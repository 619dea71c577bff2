import { api } from '@lws/fe-ui';

export interface ReminderWorker {
  id: number;
  /** Null when the server names nobody: the screen says 'Worker #id'. */
  name: string | null;
  phone: string;
  nextCheckIn: string | null;
  minutesUntil: number | null;
  due5min: boolean;
  due2min: boolean;
}

export interface ReminderStatus {
  reminderSystemActive: boolean;
  activeWorkers: number;
  now: string | null;
  workers: ReminderWorker[];
}

export interface SendResult {
  /** Null when the server names nobody: the screen says 'Worker #id'. */
  userName: string | null;
  status: string;
  providerSid?: string;
  errorCode?: string;
  errorMessage?: string;
}

const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

export function parseReminderStatus(body: unknown): ReminderStatus {
  const v = rec(body);
  if (!v || !Array.isArray(v.workers)) throw new Error('Invalid response format from server');
  const workers: ReminderWorker[] = [];
  for (const item of v.workers) {
    const w = rec(item);
    if (!w || typeof w.id !== 'number') continue;
    workers.push({
      id: w.id,
      name: str(w.name),
      phone: str(w.phone) ?? '',
      nextCheckIn: str(w.nextCheckIn),
      minutesUntil: typeof w.minutesUntil === 'number' && Number.isFinite(w.minutesUntil) ? w.minutesUntil : null,
      due5min: w.due5min === true,
      due2min: w.due2min === true,
    });
  }
  return {
    reminderSystemActive: v.reminderSystemActive === true,
    activeWorkers: typeof v.activeWorkers === 'number' ? v.activeWorkers : workers.length,
    now: str(v.now),
    workers,
  };
}

export const fetchReminderStatus = async () => parseReminderStatus(await api.get('/api/test-reminders/status'));

/** Sends a 5- or 2-minute test reminder now; a provider refusal comes back as a failed status, not an HTTP error. */
export async function sendTestReminder(userId: number, minutes: 5 | 2): Promise<SendResult> {
  const v = rec(await api.post(`/api/test-reminders/send-test-${minutes}min`, { userId }));
  const user = rec(v?.user);
  const result = rec(v?.result);
  if (!result || typeof result.status !== 'string') throw new Error('Invalid response format from server');
  const errorCode = result.errorCode === undefined || result.errorCode === null ? undefined : String(result.errorCode);
  return {
    userName: str(user?.name),
    status: result.status,
    ...(str(result.providerSid) ? { providerSid: str(result.providerSid)! } : {}),
    ...(errorCode ? { errorCode } : {}),
    ...(str(result.errorMessage) ? { errorMessage: str(result.errorMessage)! } : {}),
  };
}

export interface FakeCall {
  callSid: string;
  to: string;
  status: string;
  createdAt: string;
  say: string | null;
  /** What the callee heard after pressing keys (a check-in reminder's answer to the PIN). */
  confirmation: string | null;
}

export interface Delivery {
  messageId: string;
  channel: string;
  to: string;
  purpose: string;
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  attempts: number | null;
  createdAt: string;
  body: string | null;
  userId: number | null;
}

/** A list, whether sent bare or wrapped in an object under `key`. */
function listOf(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  const wrapped = rec(body)?.[key];
  if (Array.isArray(wrapped)) return wrapped;
  throw new Error('Invalid response format from server');
}

export function parseFakeCalls(body: unknown): FakeCall[] {
  return listOf(body, 'calls')
    .map(rec)
    .filter((c): c is Record<string, unknown> => c !== null && typeof c.callSid === 'string')
    .map((c) => ({
      callSid: c.callSid as string,
      to: str(c.to) ?? '',
      status: str(c.status) ?? 'unknown',
      createdAt: str(c.createdAt) ?? '',
      say: str(c.say),
      confirmation: str(c.confirmation),
    }));
}

export function parseDeliveries(body: unknown): Delivery[] {
  return listOf(body, 'deliveries')
    .map(rec)
    .filter((d): d is Record<string, unknown> => d !== null && typeof d.messageId === 'string')
    .map((d) => ({
      messageId: d.messageId as string,
      channel: str(d.channel) ?? '',
      to: str(d.to) ?? '',
      purpose: str(d.purpose) ?? '',
      status: str(d.status) ?? 'unknown',
      errorCode: d.errorCode === null || d.errorCode === undefined || d.errorCode === '' ? null : String(d.errorCode),
      errorMessage: str(d.errorMessage),
      attempts: typeof d.attempts === 'number' ? d.attempts : null,
      createdAt: str(d.createdAt) ?? '',
      body: str(d.body),
      userId: typeof d.userId === 'number' ? d.userId : null,
    }));
}

/** Call statuses after which the fake callee can no longer answer. */
export const FINISHED_CALL_STATUSES = new Set(['completed', 'no-answer', 'busy', 'failed', 'canceled']);
