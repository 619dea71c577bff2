import type { AlarmReportRow, MonthlyAlarmReport } from '@lws/contracts';
import { browserReport, reportCsv } from './alarm-report.view';

const empty = (kind: AlarmReportRow['kind']): AlarmReportRow => ({
  kind,
  count: 0,
  acknowledged: 0,
  resolved: 0,
  genuine: 0,
  falseAlarm: 0,
  unresolved: 0,
});

const report: MonthlyAlarmReport = {
  month: '2025-04',
  from: '2025-03-31T23:00:00.000Z',
  to: '2025-04-30T23:00:00.000Z',
  timezone: 'Europe/London',
  byTeam: [],
  byKind: [
    {
      kind: 'missed_check_in',
      count: 3,
      acknowledged: 2,
      resolved: 1,
      genuine: 0,
      falseAlarm: 1,
      test: 0,
      falseReasons: { forgotCheckIn: 0, noSignal: 1, device: 0, other: 0, notRecorded: 0 },
      unresolved: 2,
      ackP50Seconds: 65,
      ackP90Seconds: 120,
      ackMaxSeconds: 120,
      resolveP50Seconds: 300,
      resolveP90Seconds: 300,
      resolveMaxSeconds: 300,
    },
    empty('emergency'),
  ],
  total: {
    kind: 'all',
    count: 3,
    acknowledged: 2,
    resolved: 1,
    genuine: 0,
    falseAlarm: 1,
    unresolved: 2,
    ackP50Seconds: 65,
    ackP90Seconds: 120,
    ackMaxSeconds: 120,
    resolveP50Seconds: 300,
    resolveP90Seconds: 300,
    resolveMaxSeconds: 300,
  },
};

describe('reportCsv', () => {
  it('writes a header and one row per kind plus the total, empty where no alarm reached the state', () => {
    expect(reportCsv(report).split('\r\n')).toEqual([
      'month,kind,alarms,acknowledged,resolved,genuine,false_alarm,false_forgot_check_in,false_no_signal,false_device,false_other,false_not_recorded,test,unresolved,ack_p50_s,ack_p90_s,ack_max_s,resolve_p50_s,resolve_p90_s,resolve_max_s,team',
      '2025-04,missed_check_in,3,2,1,0,1,0,1,0,0,0,0,2,65,120,120,300,300,300,',
      '2025-04,emergency,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,',
      '2025-04,all,3,2,1,0,1,0,0,0,0,1,0,2,65,120,120,300,300,300,',
      '',
    ]);
  });

  it("then each team's rows, named, with a name that looks like a formula or holds a comma made safe", () => {
    const teamRows = { byKind: report.byKind, total: report.total };
    const lines = reportCsv(
      { ...report, byTeam: [{ teamId: 1, ...teamRows }, { teamId: 2, ...teamRows }, teamRows] },
      new Map([
        [1, '=HYPERLINK("x")'],
        [2, 'North, East'],
      ]),
    )
      .trim()
      .split('\r\n');
    expect(lines.slice(4)).toEqual([
      '2025-04,missed_check_in,3,2,1,0,1,0,1,0,0,0,0,2,65,120,120,300,300,300,"\'=HYPERLINK(""x"")"',
      '2025-04,emergency,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,"\'=HYPERLINK(""x"")"',
      '2025-04,all,3,2,1,0,1,0,0,0,0,1,0,2,65,120,120,300,300,300,"\'=HYPERLINK(""x"")"',
      '2025-04,missed_check_in,3,2,1,0,1,0,1,0,0,0,0,2,65,120,120,300,300,300,"North, East"',
      '2025-04,emergency,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,"North, East"',
      '2025-04,all,3,2,1,0,1,0,0,0,0,1,0,2,65,120,120,300,300,300,"North, East"',
      '2025-04,missed_check_in,3,2,1,0,1,0,1,0,0,0,0,2,65,120,120,300,300,300,No team',
      '2025-04,emergency,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,No team',
      '2025-04,all,3,2,1,0,1,0,0,0,0,1,0,2,65,120,120,300,300,300,No team',
    ]);
  });

  it('never writes a cell a spreadsheet would run as a formula', () => {
    const cells = reportCsv(report)
      .trim()
      .split('\r\n')
      .flatMap((l) => l.split(','));
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(() => reportCsv({ ...report, total: { ...report.total, count: -1 } })).toThrow();
    expect(() => reportCsv({ ...report, month: '=1+1' })).toThrow();
    expect(() => reportCsv({ ...report, total: { ...report.total, kind: '=cmd' as never } })).toThrow();
  });
});

describe('browserReport', () => {
  it('gives every figure, null where no alarm reached the state', () => {
    const out = browserReport(report);
    expect(out.byKind[1]).toEqual({
      kind: 'emergency',
      count: 0,
      acknowledged: 0,
      resolved: 0,
      genuine: 0,
      falseAlarm: 0,
      falseReasons: { forgotCheckIn: 0, noSignal: 0, device: 0, other: 0, notRecorded: 0 },
      test: 0,
      unresolved: 0,
      ackP50Seconds: null,
      ackP90Seconds: null,
      ackMaxSeconds: null,
      resolveP50Seconds: null,
      resolveP90Seconds: null,
      resolveMaxSeconds: null,
    });
    expect(out.total.ackP50Seconds).toBe(65);
    expect(out.byKind[0].falseReasons).toEqual({ forgotCheckIn: 0, noSignal: 1, device: 0, other: 0, notRecorded: 0 });
    // A row from an escalation that does not count reasons yet: every false alarm is "not recorded".
    expect(out.total.falseReasons).toEqual({ forgotCheckIn: 0, noSignal: 0, device: 0, other: 0, notRecorded: 1 });
  });
});
