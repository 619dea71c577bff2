import { translate } from '@lws/i18n';
import { english, monitorsAlarm, monitorsAlarmTitle, outcomeText, stillOpen, type AlarmFacts } from './messages';

// 14:00 and 14:05 in London (summer time): the texts show London's clock, not UTC's.
const missed: AlarmFacts = {
  kind: 'missed_check_in',
  userId: 7,
  workerName: 'Sam Jones',
  location: 'Depot',
  openedAt: new Date('2026-07-01T13:05:00Z'),
  dueAt: new Date('2026-07-01T13:00:00Z'),
};
const emergency: AlarmFacts = { ...missed, kind: 'emergency', dueAt: null };
const duress: AlarmFacts = { ...emergency, duress: true };
const nowhere = (a: AlarmFacts): AlarmFacts => ({ ...a, location: null });

const inWelsh = (t: { text: string; values: Record<string, string> }) => translate('cy', t.text, t.values);

describe("the monitors' push about an alarm", () => {
  it("rendered in English, its templates read exactly as the monitors' texts always have, with and without a location and a name", () => {
    const inEnglish = (a: AlarmFacts) => [english(monitorsAlarm(a).title), english(monitorsAlarm(a).body)];
    expect(inEnglish(missed)).toEqual([
      'Missed check-in: Sam Jones',
      'Sam Jones did not check in by 14:00 at Depot. Acknowledge the alarm in LWS.',
    ]);
    expect(inEnglish(nowhere(missed))[1]).toBe('Sam Jones did not check in by 14:00. Acknowledge the alarm in LWS.');
    expect(inEnglish({ ...missed, dueAt: null })[1]).toBe('Sam Jones did not check in by 14:05 at Depot. Acknowledge the alarm in LWS.');
    expect(inEnglish(emergency)).toEqual([
      'EMERGENCY: Sam Jones',
      'Sam Jones requested emergency assistance at Depot at 14:05. Acknowledge the alarm in LWS.',
    ]);
    expect(inEnglish(nowhere(emergency))[1]).toBe('Sam Jones requested emergency assistance at 14:05. Acknowledge the alarm in LWS.');
    expect(inEnglish(duress)).toEqual([
      'DURESS: Sam Jones',
      'DURESS: Sam Jones entered their duress PIN at Depot at 14:05 and may be under threat. Do not call them. Acknowledge the alarm in LWS.',
    ]);
    expect(inEnglish(nowhere(duress))[1]).toBe(
      'DURESS: Sam Jones entered their duress PIN at 14:05 and may be under threat. Do not call them. Acknowledge the alarm in LWS.',
    );
    expect(english(stillOpen(missed))).toBe('Nobody has acknowledged the alarm for Sam Jones (opened 14:05). Acknowledge it in LWS.');
    const unnamed = { ...missed, workerName: '  ' };
    expect([inEnglish(unnamed)[0], english(stillOpen(unnamed))]).toEqual([
      'Missed check-in: Worker #7',
      'Nobody has acknowledged the alarm for Worker #7 (opened 14:05). Acknowledge it in LWS.',
    ]);
    // A call's title (the provider's log) is that rendering.
    for (const a of [missed, nowhere(missed), emergency, duress, unnamed]) expect(monitorsAlarmTitle(a)).toBe(inEnglish(a)[0]);
  });

  it('is a template with its values, whose English rendering is the English text', () => {
    const { title, body } = monitorsAlarm(missed);
    expect(title).toEqual({ text: 'Missed check-in: {{name}}', values: { name: 'Sam Jones' } });
    expect(body).toEqual({
      text: '{{name}} did not check in by {{time}} at {{location}}. Acknowledge the alarm in LWS.',
      values: { name: 'Sam Jones', time: '14:00', location: 'Depot' },
    });
    expect(monitorsAlarm(nowhere(missed)).body.values).toEqual({ name: 'Sam Jones', time: '14:00' });
    expect(stillOpen(missed)).toEqual({
      text: 'Nobody has acknowledged the alarm for {{name}} (opened {{time}}). Acknowledge it in LWS.',
      values: { name: 'Sam Jones', time: '14:05' },
    });
  });

  it('reads in Welsh for a monitor who speaks Welsh: every title and body, with and without a location', () => {
    const welsh = (a: AlarmFacts) => [inWelsh(monitorsAlarm(a).title), inWelsh(monitorsAlarm(a).body)];
    expect(welsh(missed)).toEqual([
      "Cofrestriad wedi'i golli: Sam Jones",
      'Ni wnaeth Sam Jones gofrestru erbyn 14:00 yn Depot. Cydnabyddwch y larwm yn LWS.',
    ]);
    expect(welsh(nowhere(missed))[1]).toBe('Ni wnaeth Sam Jones gofrestru erbyn 14:00. Cydnabyddwch y larwm yn LWS.');
    expect(welsh(emergency)).toEqual([
      'ARGYFWNG: Sam Jones',
      'Mae Sam Jones wedi gofyn am gymorth brys yn Depot am 14:05. Cydnabyddwch y larwm yn LWS.',
    ]);
    expect(welsh(nowhere(emergency))[1]).toBe('Mae Sam Jones wedi gofyn am gymorth brys am 14:05. Cydnabyddwch y larwm yn LWS.');
    expect(welsh(duress)).toEqual([
      'GORFODAETH: Sam Jones',
      "GORFODAETH: mae Sam Jones wedi rhoi ei PIN dan orfodaeth yn Depot am 14:05 ac efallai ei fod dan fygythiad. Peidiwch â'i ffonio. Cydnabyddwch y larwm yn LWS.",
    ]);
    expect(welsh(nowhere(duress))[1]).toBe(
      "GORFODAETH: mae Sam Jones wedi rhoi ei PIN dan orfodaeth am 14:05 ac efallai ei fod dan fygythiad. Peidiwch â'i ffonio. Cydnabyddwch y larwm yn LWS.",
    );
    expect(inWelsh(stillOpen(missed))).toBe(
      'Nid oes neb wedi cydnabod y larwm ar gyfer Sam Jones (agorwyd am 14:05). Cydnabyddwch ef yn LWS.',
    );
  });
});

describe('outcomeText', () => {
  it("reads an alarm's outcome as its history line does", () => {
    expect(outcomeText({ verdict: 'genuine', severity: 'critical' })).toBe('genuine, critical incident');
    expect(outcomeText({ verdict: 'false_alarm', reason: 'no_signal' })).toBe('false alarm: no signal');
    expect(outcomeText({ verdict: 'false_alarm', reason: 'device' })).toBe('false alarm: device problem');
    expect(outcomeText({ verdict: 'test' })).toBe('test');
    // Resolved before outcomes had details (an older gateway): the verdict alone.
    expect(outcomeText({ verdict: 'genuine', severity: null })).toBe('genuine');
    expect(outcomeText({ verdict: 'false_alarm' })).toBe('false alarm');
  });
});
