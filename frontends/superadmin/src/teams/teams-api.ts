import { api, msg } from '@lws/fe-ui';
import type { TimelineStep } from '@lws/rules';

/** The check-in intervals a team may allow (spec: 30, 50, 60, 120, 240 minutes). */
export const INTERVALS = [30, 50, 60, 120, 240] as const;
export const ALARM_KINDS = [
  { kind: 'missed_check_in', label: msg('Missed check-in') },
  { kind: 'emergency', label: msg('Emergency') },
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number]['kind'];

export interface TeamMonitor {
  userId: number;
  deputyUserId?: number;
}

export interface PolicyStep extends TimelineStep {
  after: number | 'calls_done';
}

/** A webhook endpoint a hand_off step can hand an alarm to, as the policy editor names it. */
export interface WebhookEndpointName {
  id: string;
  name: string;
  enabled: boolean;
}

// Under the Integrations tab's key for the endpoints, so a change made there reaches the editor too.
export const WEBHOOK_ENDPOINT_NAMES_KEY = ['webhooks', 'endpoints', 'names'] as const;

export function parseWebhookEndpointNames(body: unknown): WebhookEndpointName[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of webhook endpoints'));
  return body.flatMap((e: unknown) => {
    const v = e as Partial<WebhookEndpointName> | null;
    return v && typeof v.id === 'string' && typeof v.name === 'string' ? [{ id: v.id, name: v.name, enabled: v.enabled !== false }] : [];
  });
}

export const fetchWebhookEndpointNames = async ({ signal }: { signal?: AbortSignal }) =>
  parseWebhookEndpointNames(await api.get('/api/webhooks/endpoints', { signal }));

export type TeamPolicy = Partial<Record<AlarmKind, PolicyStep[]>> & { repeatAfterSeconds?: number };

/** A row of GET /api/teams. */
export interface Team {
  id: number;
  name: string;
  locationIds: number[];
  monitors: TeamMonitor[];
  checkInPolicy: { defaultInterval: number; allowedIntervals: number[] };
  escalationPolicy: TeamPolicy | null;
  emergencyNumbers: string[];
  /** A call 2 minutes before each deadline takes the PIN on the keypad. */
  voiceReminder?: boolean;
  memberCount: number;
  version: number;
}

export interface Person {
  id: number;
  name: string;
  username: string;
  role?: string;
}

function isTeam(v: unknown): v is Team {
  const t = v as Partial<Team> | null;
  return (
    !!t &&
    typeof t.id === 'number' &&
    typeof t.name === 'string' &&
    Array.isArray(t.monitors) &&
    Array.isArray(t.locationIds) &&
    !!t.checkInPolicy
  );
}

export function parseTeams(body: unknown): Team[] {
  if (!Array.isArray(body)) throw new Error('Expected a list of teams');
  return body.filter(isTeam);
}

export function parsePeople(body: unknown): Person[] {
  if (!Array.isArray(body)) throw new Error('Expected a list of people');
  return body.flatMap((p: unknown) => {
    const v = p as Partial<Person> | null;
    return v && typeof v.id === 'number' && typeof v.username === 'string'
      ? [
          {
            id: v.id,
            name: typeof v.name === 'string' ? v.name : v.username,
            username: v.username,
            ...(typeof v.role === 'string' ? { role: v.role } : {}),
          },
        ]
      : [];
  });
}

/** The steps the editor starts a kind from when the team has none of its own: the built-in defaults, for a two-minute acknowledgement window. */
export function starterSteps(kind: AlarmKind): PolicyStep[] {
  return kind === 'emergency'
    ? [
        { action: 'notify_monitors', after: 0 },
        { action: 'message_contacts', after: 0, callPrimaryContact: true },
        { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
      ]
    : [
        { action: 'notify_worker', after: 0 },
        { action: 'notify_monitors', after: 0 },
        { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
        { action: 'message_contacts', after: 'calls_done' },
      ];
}
