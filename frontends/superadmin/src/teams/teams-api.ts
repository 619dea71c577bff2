import { api, msg } from '@lws/fe-ui';

// The slot and timeline are @lws/fe-ui's, shared with the monitors' dashboard.
export { parseOnCallTimeline, type OnCallGap, type OnCallSlot, type OnCallTimeline } from '@lws/fe-ui';
import type { TimelineStep } from '@lws/rules';
import { COVER_REQUIRED, ON_CALL_ROTATIONS, type CoverRequired } from '@lws/schemas';

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
  /** The team's on-call rota (null or absent: none). */
  onCallSchedule?: OnCallSchedule | null;
  /** What a shift that starts while nobody is on call meets (absent: off). */
  coverRequired?: CoverRequired;
  /** The kinds of timed visit its workers pick from (risk levels), in order (absent: none, an older server). */
  visitTypes?: VisitType[];
}

/**
 * A kind of timed visit a team defines (a risk level), e.g. "Home visit, high risk": how long it
 * lasts unless the worker says otherwise, how often they check in while it lasts (null: their own
 * interval), whether reminders go by SMS too, and its alarms' policy (null: the team's).
 */
export interface VisitType {
  /** The server's; a type not saved yet has none. */
  id?: string;
  name: string;
  minutes: number;
  checkInInterval: number | null;
  smsToo: boolean;
  escalationPolicy: TeamPolicy | null;
}

/** The default lengths the editor offers a visit type, in minutes (the server takes 5 to 240). */
export const VISIT_TYPE_LENGTHS = [15, 20, 30, 45, 60, 90, 120] as const;
/** The check-in intervals the editor offers during a visit, in minutes (the server takes 5 to 240). */
export const VISIT_TYPE_INTERVALS = [10, 15, 20, 30, 45, 60] as const;

// ---------- On-call rota (docs/api-teams.md, "On-call rota") ----------

export type OnCallRotation = (typeof ON_CALL_ROTATIONS)[number];

/** Restricted hours: the layer covers only these days (1 = Monday), from `from` to `to` (at or before `from`: the next day). */
export interface OnCallWindow {
  days: number[];
  from: string;
  to: string;
}

export interface OnCallLayer {
  name: string;
  /** A local date and time in the rota's zone, 'YYYY-MM-DDTHH:mm': its time of day is the hand-off. */
  start: string;
  rotation: OnCallRotation;
  turnDays?: number;
  /** In turn order. */
  userIds: number[];
  windows?: OnCallWindow[];
}

/** Someone in a layer's place from `start` to `end` (ISO instants). */
export interface OnCallOverride {
  id: string;
  layer: number;
  userId: number;
  start: string;
  end: string;
}

export interface OnCallSchedule {
  timeZone: string;
  /** In priority order. */
  layers: OnCallLayer[];
  overrides: OnCallOverride[];
}

/** The Teams tab's read of the teams with their people (TeamsCard). */
export const TEAMS_WITH_MEMBERS_KEY = ['teams', 'with-members'] as const;
/** The rota editor's two weeks of a team's timeline (its own key: the monitors' dashboard reads other ranges). */
export const rotaTimelineKey = (teamId: number) => ['teams', teamId, 'on-call', 'rota-editor'] as const;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** An instant the screen can compute with, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);
const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

function parseWindow(value: unknown): OnCallWindow | null {
  const v = record(value);
  if (!v || typeof v.from !== 'string' || typeof v.to !== 'string') return null;
  return { days: list(v.days).filter(whole), from: v.from, to: v.to };
}

function parseLayer(value: unknown): OnCallLayer | null {
  const v = record(value);
  if (!v) return null;
  const rotation = ON_CALL_ROTATIONS.find((r) => r === v.rotation) ?? 'weekly';
  const windows = list(v.windows).flatMap((w) => parseWindow(w) ?? []);
  return {
    name: typeof v.name === 'string' ? v.name : '',
    start: typeof v.start === 'string' ? v.start : '',
    rotation,
    ...(whole(v.turnDays) ? { turnDays: v.turnDays } : {}),
    userIds: list(v.userIds).filter(whole),
    ...(windows.length > 0 ? { windows } : {}),
  };
}

/** An override as the server answers it (POST .../overrides, or in the team's rota), or null when it does not say who and when. */
export function parseOnCallOverride(value: unknown): OnCallOverride | null {
  const v = record(value);
  const start = instant(v?.start);
  const end = instant(v?.end);
  if (!v || typeof v.id !== 'string' || !whole(v.userId) || !start || !end) return null;
  return { id: v.id, layer: whole(v.layer) ? v.layer : 0, userId: v.userId, start, end };
}

/** A team's rota as GET /api/teams answers it; null when it has none (or none the editor can read). */
export function parseOnCallSchedule(value: unknown): OnCallSchedule | null {
  const v = record(value);
  if (!v) return null;
  return {
    timeZone: typeof v.timeZone === 'string' && v.timeZone ? v.timeZone : 'Europe/London',
    layers: list(v.layers).flatMap((l) => parseLayer(l) ?? []),
    overrides: list(v.overrides).flatMap((o) => parseOnCallOverride(o) ?? []),
  };
}

export const parseCoverRequired = (value: unknown): CoverRequired => COVER_REQUIRED.find((c) => c === value) ?? 'off';

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
  return body.filter(isTeam).map(parseTeamRota);
}

/** A team with its rota and visit types read as the editor needs them (a rota it cannot read is none). */
export function parseTeamRota(team: Team): Team {
  const raw = team as Team & { onCallSchedule?: unknown; coverRequired?: unknown; visitTypes?: unknown };
  return {
    ...team,
    onCallSchedule: parseOnCallSchedule(raw.onCallSchedule),
    coverRequired: parseCoverRequired(raw.coverRequired),
    visitTypes: parseVisitTypes(raw.visitTypes),
  };
}

/** A policy object as the server keeps it; anything else is none (the team's). */
function parsePolicy(value: unknown): TeamPolicy | null {
  const v = record(value);
  if (!v) return null;
  const steps = (s: unknown) => (Array.isArray(s) ? (s as PolicyStep[]) : undefined);
  const missed = steps(v.missed_check_in);
  const emergency = steps(v.emergency);
  return {
    ...(missed ? { missed_check_in: missed } : {}),
    ...(emergency ? { emergency } : {}),
    ...(whole(v.repeatAfterSeconds) ? { repeatAfterSeconds: v.repeatAfterSeconds } : {}),
  };
}

/** A team's visit types as GET /api/teams answers them; none when absent (a server from before them). */
export function parseVisitTypes(value: unknown): VisitType[] {
  return list(value).flatMap((item) => {
    const v = record(item);
    if (!v || typeof v.name !== 'string' || !whole(v.minutes)) return [];
    return [
      {
        ...(typeof v.id === 'string' && v.id ? { id: v.id } : {}),
        name: v.name,
        minutes: v.minutes,
        checkInInterval: whole(v.checkInInterval) ? v.checkInInterval : null,
        smsToo: v.smsToo === true,
        escalationPolicy: parsePolicy(v.escalationPolicy),
      },
    ];
  });
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
