import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { CommandMap, EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { DB, type Db, type Tx } from '@lws/platform';
import { alarms } from '../db/schema';
import { ownsAlarm } from './alarm-scope';
import { AlarmViews } from './alarm-views';
import { AlarmsRepository } from './alarms.repository';

type VisitOf = CommandMap['escalation.alarm.visit.v1'];

/**
 * The sealed note of a visit is shifts' to keep and open; escalation says which visit an alarm
 * opened on, to those who may see the alarm, and its history names everyone who read the note.
 */
@Injectable()
export class VisitNoteReads {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly views: AlarmViews,
    @Inject(DB) private readonly db: Db,
  ) {}

  async visitOf(req: VisitOf['request']): Promise<VisitOf['reply']> {
    const [alarm] = await this.db
      .select({ userId: alarms.userId, teamId: alarms.teamId, visit: alarms.visit })
      .from(alarms)
      .where(eq(alarms.id, req.alarmId));
    if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
    const v = alarm.visit;
    return {
      userId: alarm.userId,
      ...(v ? { visit: { id: v.id, where: v.where, startedAt: v.startedAt, endsAt: v.endsAt, hasNote: v.hasNote } } : {}),
    };
  }

  async revealed(tx: Tx, e: EventMap['shifts.visit.note_revealed.v1']): Promise<void> {
    const by = e.viaToken ?? (await this.views.personName(tx, e.byUserId));
    await this.repo.note(tx, e.alarmId, new Date(e.revealedAt), `Sealed visit note read by ${by}`);
  }
}
