import { loadConfig, ConfigError } from '@lws/platform';
import { escalationConfigShape, settingsFrom } from '../config';
import { freezePolicy, stepDueAt, watchdogDueAt } from './policy';
import { londonTime, reminderText } from './messages';

const load = (env: NodeJS.ProcessEnv) => settingsFrom(loadConfig(escalationConfigShape, env));
const OPENED = new Date('2030-01-08T02:00:00Z');

/** A team whose nights (20:00 to 08:00) are Nia's (7) and whose days are Dan's (5), on a London rota. */
const rotaTeam = (escalationPolicy: unknown = null) => ({
  monitors: [{ userId: 5, deputyUserId: 6 }, { userId: 7 }],
  escalationPolicy,
  emergencyNumbers: [],
  onCallSchedule: {
    timeZone: 'Europe/London',
    layers: [
      {
        name: 'Nights',
        start: '2026-01-05T20:00',
        rotation: 'weekly' as const,
        userIds: [7],
        windows: [{ days: [1, 2, 3, 4, 5, 6, 7] as (1 | 2 | 3 | 4 | 5 | 6 | 7)[], from: '20:00', to: '08:00' }],
      },
      { name: 'Days', start: '2026-01-05T08:00', rotation: 'weekly' as const, userIds: [5] },
    ],
    overrides: [],
  },
});

describe('escalation policy configuration', () => {
  it('defaults: notify worker and monitors at once, call after 2 minutes unless acknowledged, then message contacts', () => {
    const p = freezePolicy('missed_check_in', load({ EMERGENCY_NUMBER_1: '+447700900123' }).policy, OPENED);
    expect(p.steps.map((s) => [s.action, s.after])).toEqual([
      ['notify_worker', 0],
      ['notify_monitors', 0],
      ['call_emergency_numbers', 120],
      ['message_contacts', 'calls_done'],
    ]);
    expect(p).toMatchObject({ emergencyNumbers: ['+447700900123'], callTimeoutSeconds: 60, repeatAfterSeconds: 300 });
  });

  it('an emergency alerts monitors and contacts (calling the primary) at once, and calls the numbers after the acknowledgement timeout', () => {
    const p = freezePolicy('emergency', load({ ALARM_ACK_TIMEOUT_SECONDS: '90' }).policy, OPENED);
    expect(p.steps).toEqual([
      { action: 'notify_monitors', after: 0 },
      { action: 'message_contacts', after: 0, callPrimaryContact: true, unlessAcknowledged: false },
      { action: 'call_emergency_numbers', after: 90, unlessAcknowledged: true },
    ]);
  });

  it('ESCALATION_POLICY replaces one kind and keeps the other; the frozen copy keeps the numbers of its day', () => {
    const settings = load({
      ESCALATION_POLICY: JSON.stringify({ missed_check_in: [{ action: 'notify_monitors', after: 30 }], repeatAfterSeconds: 600 }),
      EMERGENCY_NUMBER_1: '+447700900123',
      EMERGENCY_NUMBER_3: '+447700900125',
    });
    const frozen = freezePolicy('missed_check_in', settings.policy, OPENED);
    expect(frozen.steps).toEqual([{ action: 'notify_monitors', after: 30 }]);
    expect(frozen.repeatAfterSeconds).toBe(600);
    expect(frozen.emergencyNumbers).toEqual(['+447700900123', '+447700900125']);
    settings.policy.emergencyNumbers.push('+447700900999');
    expect(frozen.emergencyNumbers).toHaveLength(2);
    expect(freezePolicy('emergency', settings.policy, OPENED).steps[0]).toEqual({ action: 'notify_monitors', after: 0 });
  });

  it('refuses bad configuration naming the variable', () => {
    const problem = (env: NodeJS.ProcessEnv) => {
      try {
        load(env);
      } catch (err) {
        return (err as ConfigError).problems[0];
      }
      throw new Error('accepted');
    };
    expect(problem({ EMERGENCY_NUMBER_2: '07911 123456' }).variable).toBe('EMERGENCY_NUMBER_2');
    expect(problem({ EMERGENCY_NUMBER_1: '+4412' }).variable).toBe('EMERGENCY_NUMBER_1');
    expect(problem({ ESCALATION_POLICY: '{not json' })).toEqual({ variable: 'ESCALATION_POLICY', message: 'must be JSON' });
    expect(problem({ ESCALATION_POLICY: JSON.stringify({ missed_check_in: [{ action: 'call_everyone', after: 0 }] }) }).variable).toBe(
      'ESCALATION_POLICY',
    );
    expect(problem({ ESCALATION_POLICY: JSON.stringify({ missed_check_in: [] }) }).variable).toBe('ESCALATION_POLICY');
    expect(problem({ EMERGENCY_CALL_TIMEOUT_SECONDS: '5' }).variable).toBe('EMERGENCY_CALL_TIMEOUT_SECONDS');
    expect(problem({ REMINDER_CHANNELS: 'sms,pigeon' }).variable).toBe('REMINDER_CHANNELS');
    expect(load({ REMINDER_CHANNELS: 'whatsapp, sms' }).reminderChannels).toEqual(['whatsapp', 'sms']);
  });

  it('times steps from the opening: a step whose time passed runs at once; calls_done follows the round', () => {
    const p = freezePolicy('missed_check_in', load({}).policy, OPENED);
    const opened = new Date('2025-06-02T13:00:00Z');
    expect(stepDueAt(p, 2, opened, opened)).toEqual(new Date('2025-06-02T13:02:00Z'));
    expect(stepDueAt(p, 2, opened, new Date('2025-06-02T13:05:00Z'))).toEqual(new Date('2025-06-02T13:05:00Z'));
    expect(stepDueAt(p, 3, opened, new Date('2025-06-02T13:03:10Z'))).toEqual(new Date('2025-06-02T13:03:10Z'));
    expect(watchdogDueAt(p, opened)).toEqual(new Date('2025-06-02T13:01:30Z'));
  });

  it('reminder texts name the deadline in London time', () => {
    expect(londonTime(new Date('2025-06-02T13:00:00Z'))).toBe('14:00');
    expect(londonTime(new Date('2025-12-02T13:00:00Z'))).toBe('13:00');
    expect(reminderText(5, new Date('2025-06-02T13:00:00Z'))).toBe(
      'LWS reminder: your check-in is due in 5 minutes (by 14:00). Open LWS and check in.',
    );
    // A text message says how to check in by replying.
    expect(reminderText(5, new Date('2025-06-02T13:00:00Z'), true)).toBe(
      'LWS reminder: your check-in is due in 5 minutes (by 14:00). Open LWS and check in, or reply to this message with your PIN.',
    );
  });
});

describe('an alarm of a team with an on-call rota', () => {
  const settings = load({}).policy;

  it('freezes who was on call when it opened: at 02:00 the night layer, the day layer next', () => {
    const p = freezePolicy('missed_check_in', settings, OPENED, rotaTeam());
    expect(p.onCall).toMatchObject({
      now: { userId: 7, layer: 0, layerName: 'Nights', until: '2030-01-08T08:00:00.000Z' },
      // Dan's stretch on the day layer runs on (the layer alone has him all week).
      next: { userId: 5, layer: 1, layerName: 'Days' },
    });
    expect(freezePolicy('missed_check_in', settings, new Date('2030-01-08T10:00:00Z'), rotaTeam()).onCall).toEqual({
      now: { userId: 5, layer: 1, layerName: 'Days', until: '2030-01-08T20:00:00.000Z' },
    });
  });

  it("tells whoever is on call where the organisation's steps tell the team's monitors", () => {
    const p = freezePolicy('missed_check_in', settings, OPENED, rotaTeam());
    expect(p.steps.map((s) => s.action)).toEqual(['notify_worker', 'notify_on_call', 'call_emergency_numbers', 'message_contacts']);
    // Without a rota, the steps are the organisation's as they are.
    const { onCallSchedule: _, ...plain } = rotaTeam();
    expect(freezePolicy('missed_check_in', settings, OPENED, plain).steps[1]).toEqual({ action: 'notify_monitors', after: 0 });
    expect(freezePolicy('missed_check_in', settings, OPENED, plain).onCall).toBeUndefined();
  });

  it("keeps a team's own steps as they are", () => {
    const own = { missed_check_in: [{ action: 'notify_monitors', after: 0 }] };
    expect(freezePolicy('missed_check_in', settings, OPENED, rotaTeam(own)).steps).toEqual([{ action: 'notify_monitors', after: 0 }]);
  });

  it('keeps nobody on call for a gap, and for a rota it cannot read', () => {
    const team = rotaTeam();
    const nightsOnly = { ...team, onCallSchedule: { ...team.onCallSchedule, layers: [team.onCallSchedule.layers[0]] } };
    expect(freezePolicy('missed_check_in', settings, new Date('2030-01-08T10:00:00Z'), nightsOnly).onCall).toEqual({});
    const broken = { ...team, onCallSchedule: { ...team.onCallSchedule, timeZone: 'Mars/Olympus' } };
    expect(freezePolicy('missed_check_in', settings, OPENED, broken).onCall).toEqual({});
  });
});
