/** @jest-environment jsdom */
import { afterEach, describe, expect, it } from '@jest/globals';
import { act } from '@testing-library/react';
import { i18n, setLanguage } from '@lws/fe-ui';
import { policyTimeline, stepOrderProblem } from '@lws/rules';
import { stepsProblem, timelineLines } from './PolicyEditor';
import type { PolicyStep } from './teams-api';

const STEPS: PolicyStep[] = [
  { action: 'notify_worker', after: 0 },
  { action: 'notify_monitor', after: 0, position: 1 },
  { action: 'notify_deputy', after: 90, position: 2 },
  { action: 'call_emergency_numbers', after: 120, unlessAcknowledged: true },
  { action: 'message_contacts', after: 'calls_done', callPrimaryContact: true },
  { action: 'notify_monitors', after: 60 },
  { action: 'notify_organisation', after: 3700 },
];

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe("the policy editor's timeline, in the user's language", () => {
  it('says in English exactly what @lws/rules says', () => {
    expect(timelineLines(STEPS, i18n.t)).toEqual(policyTimeline(STEPS));
    const waiting: PolicyStep[] = [
      { action: 'notify_monitors', after: 0 },
      { action: 'message_contacts', after: 'calls_done' },
    ];
    expect(stepsProblem(waiting, i18n.t)).toBe(stepOrderProblem(waiting)?.message);
  });

  it('says it in Welsh once Welsh is chosen', async () => {
    await act(() => setLanguage('cy'));
    expect(timelineLines(STEPS.slice(2, 5), i18n.t)).toEqual([
      '1:30 hysbysu dirprwy monitor 2',
      "2:00 ffonio'r rhifau brys oni bai ei fod wedi'i gydnabod",
      "ar ôl y galwadau: anfon neges at y cysylltiadau mewn argyfwng a ffonio'r prif gyswllt",
    ]);
    expect(stepsProblem([], i18n.t)).toBe('Ychwanegwch o leiaf un cam');
  });
});
