import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { and, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { Chores, CLOCK, onCallGaps, UnitOfWork, type Clock, type OnCallPeople, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { onCallNotices, teams, workers, type TeamRow } from '../db/schema';
import { english, onCallGapsNotice } from '../alarms/messages';
import { Notifier } from '../alarms/notifier';
import { dialable } from '../workers/phone';

/** The notice looks this far ahead. */
export const GAP_NOTICE_AHEAD_MS = 48 * 3600_000;
/** How often the chore looks whether today's notice is due. */
const CHECK_MS = 60_000;

const londonDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const londonClock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Today's London date, and whether its notice time (HH:mm, London) has come. */
export function noticeDue(now: Date, at: string): { day: string; due: boolean } {
  return { day: londonDay.format(now), due: londonClock.format(now) >= at };
}

/**
 * Once a day at ON_CALL_GAP_NOTICE_AT (London time), each team with an on-call rota that has
 * nobody on call for some of the next 48 hours is named to its monitors and deputies and to the
 * superadmin, by push and by SMS to each who has a phone: the gap is seen before a worker needs it.
 * The day's row makes it go once whatever the replicas; a round that fails is tried again at the
 * next minute, the row rolled back with it.
 */
@Injectable()
export class OnCallGapNotice implements OnApplicationBootstrap {
  constructor(
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    private readonly notifier: Notifier,
    private readonly chores: Chores,
  ) {}

  onApplicationBootstrap(): void {
    this.chores.every('on-call-gap-notice', CHECK_MS, () => this.run());
  }

  /** Sends today's notice if it is due and not sent yet; answers the teams it named (none: not due, sent, or no gaps). */
  async run(): Promise<string[]> {
    const now = this.clock();
    const { day, due } = noticeDue(now, this.settings.gapNoticeAt);
    if (!due) return [];
    return this.uow.run(async (tx, emit) => {
      const [claimed] = await tx.insert(onCallNotices).values({ day, sentAt: now, teams: 0 }).onConflictDoNothing().returning();
      if (!claimed) return [];
      const rotas = await tx
        .select()
        .from(teams)
        .where(and(isNotNull(teams.onCallSchedule), isNull(teams.deletedAt)));
      const people = await this.people(tx, rotas);
      const named: string[] = [];
      for (const team of rotas) {
        let gaps: ReturnType<typeof onCallGaps>;
        try {
          gaps = onCallGaps(team.onCallSchedule!, now, new Date(now.getTime() + GAP_NOTICE_AHEAD_MS), peopleOf(team, people.away));
        } catch {
          // A rota that cannot be read was checked when saved: it has no gaps to name.
          continue;
        }
        if (gaps.length === 0) continue;
        const told = [
          ...new Set([
            ...team.monitors.flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]),
            ...people.superadmins,
          ]),
        ].filter((id) => people.known.has(id));
        const { title, body } = onCallGapsNotice(team.name, gaps);
        const texts = { title: english(title), body: english(body), titleText: title, bodyText: body };
        await this.notifier.request(tx, emit, {
          channel: 'push',
          ...(told.length > 0 ? { toUsers: { userIds: told } } : { toRole: 'monitors' as const }),
          purpose: 'on_call_gaps',
          ...texts,
          since: now.toISOString(),
        });
        for (const id of told) {
          const phone = dialable(people.known.get(id));
          if (phone)
            await this.notifier.request(tx, emit, {
              channel: 'sms',
              toPhone: phone,
              purpose: 'on_call_gaps',
              body: english(body),
              since: now.toISOString(),
            });
        }
        named.push(team.name);
      }
      await tx.update(onCallNotices).set({ teams: named.length }).where(eq(onCallNotices.day, day));
      return named;
    });
  }

  /** In one read: the rotas' people's away times and phones, and the superadmins. */
  private async people(tx: Tx, rotas: TeamRow[]) {
    const ids = [
      ...new Set(rotas.flatMap((t) => t.monitors.flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]))),
    ];
    const rows = await tx
      .select({ id: workers.userId, role: workers.role, phone: workers.phone, awayUntil: workers.awayUntil })
      .from(workers)
      .where(
        and(
          isNull(workers.deletedAt),
          ids.length > 0 ? or(inArray(workers.userId, ids), eq(workers.role, 'superadmin')) : eq(workers.role, 'superadmin'),
        ),
      );
    return {
      away: new Map(rows.map((r) => [r.id, r.awayUntil ?? undefined])),
      known: new Map(rows.map((r) => [r.id, r.phone])),
      superadmins: rows.filter((r) => r.role === 'superadmin').map((r) => r.id),
    };
  }
}

function peopleOf(team: TeamRow, away: ReadonlyMap<number, Date | undefined>): OnCallPeople {
  const deputies = new Map(team.monitors.flatMap((m) => (m.deputyUserId !== undefined ? [[m.userId, m.deputyUserId] as const] : [])));
  return { awayUntil: (id) => away.get(id), deputyOf: (id) => deputies.get(id) };
}
