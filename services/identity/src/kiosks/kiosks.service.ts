import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, UnitOfWork, type Clock, type Db } from '@lws/platform';
import { kiosks, teams, users, type KioskRow, type UserRow } from '../db/schema';
import { PIN_LOCKED } from '../credentials/messages';
import { PinVerifier } from '../credentials/pin-verifier';
import { toUserView } from '../users/user-view';
import { kioskTokenHash, newKioskToken } from './kiosk-token';
import { toKioskView } from './kiosk-view';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];

export const NOT_A_KIOSK = 'This device is not an enrolled kiosk';
export const INVALID_PIN = 'Invalid name or PIN';
export const WHO_FIRST = 'Choose your name first';
/** A roster longer than this is cut (the screen's search box and the username field still reach everyone). */
export const ROSTER_MAX = 5000;

/** "Sam Taylor" → "Sam T.": enough for a worker to find themselves, little for a passer-by. */
export function rosterLabel(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length <= 1) return parts[0] ?? name;
  return `${parts[0]} ${[...parts[parts.length - 1]][0].toUpperCase()}.`;
}
export const KIOSK_NOT_FOUND = 'Kiosk not found';

@Injectable()
export class KiosksService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly verifier: PinVerifier,
  ) {}

  async enrol(req: Request<'identity.kiosk.enrol.v1'>): Promise<Reply<'identity.kiosk.enrol.v1'>> {
    const token = newKioskToken();
    const [row] = await this.db
      .insert(kiosks)
      .values({
        name: req.name.trim(),
        location: req.location.trim(),
        locationId: req.locationId ?? null,
        tokenHash: kioskTokenHash(token),
        enrolledBy: req.enrolledBy,
        enrolledAt: this.clock(),
      })
      .returning();
    return { kiosk: toKioskView(row), token };
  }

  async list(): Promise<Reply<'identity.kiosk.list.v1'>> {
    const rows = await this.db.select().from(kiosks).orderBy(desc(kiosks.enrolledAt), desc(kiosks.id));
    return { kiosks: rows.map(toKioskView) };
  }

  /** Idempotent: revoking a revoked kiosk keeps its first revocation time. */
  async revoke(req: Request<'identity.kiosk.revoke.v1'>): Promise<Reply<'identity.kiosk.revoke.v1'>> {
    const [revoked] = await this.db
      .update(kiosks)
      .set({ revokedAt: this.clock() })
      .where(and(eq(kiosks.id, req.kioskId), isNull(kiosks.revokedAt)))
      .returning();
    const row = revoked ?? (await this.db.select().from(kiosks).where(eq(kiosks.id, req.kioskId)))[0];
    if (!row) throw new RpcError(404, KIOSK_NOT_FOUND, { field: 'id' });
    return { kiosk: toKioskView(row) };
  }

  async current(req: Request<'identity.kiosk.current.v1'>): Promise<Reply<'identity.kiosk.current.v1'>> {
    const kiosk = await this.activeKiosk(req.token);
    if (!kiosk) return { enrolled: false };
    return {
      enrolled: true,
      name: kiosk.name,
      location: kiosk.location,
      ...(kiosk.locationId !== null ? { locationId: kiosk.locationId } : {}),
    };
  }

  async roster(req: Request<'identity.kiosk.roster.v1'>): Promise<Reply<'identity.kiosk.roster.v1'>> {
    const kiosk = await this.activeKiosk(req.token);
    if (!kiosk) throw new RpcError(403, NOT_A_KIOSK, { code: 'not_a_kiosk' });
    // A kiosk lists the workers of the teams working at its location and of teams bound to no
    // location (every worker while no team names the location); anyone else types their username.
    // Its own location id, never one found by name: renaming locations cannot move it between teams.
    const loc = kiosk.locationId ?? req.locationId;
    const here =
      loc === undefined
        ? undefined
        : sql`(not exists (select 1 from ${teams} where ${loc} = any(${teams.locationIds}))
            or ${users.teamId} in (select ${teams.id} from ${teams} where ${loc} = any(${teams.locationIds}) or cardinality(${teams.locationIds}) = 0))`;
    const rows = await this.db
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(and(eq(users.role, 'worker'), isNull(users.disabledAt), here))
      .orderBy(asc(users.name), asc(users.id))
      .limit(ROSTER_MAX);
    const workers = rows
      .map((r) => ({ userId: r.id, label: rosterLabel(r.name) }))
      .sort((a, b) => a.label.localeCompare(b.label) || a.userId - b.userId);
    return { name: kiosk.name, location: kiosk.location, workers, ...(kiosk.locationId !== null ? { locationId: kiosk.locationId } : {}) };
  }

  /**
   * The worker picked (or typed) on the kiosk, then their PIN, through the one PIN path: a wrong
   * PIN counts toward their lockout as anywhere else. Only workers sign in at a kiosk; any other
   * account, an unknown name, no PIN set or a wrong PIN all get one answer that names no account.
   */
  async pinLogin(req: Request<'identity.kiosk.pin_login.v1'>): Promise<Reply<'identity.kiosk.pin_login.v1'>> {
    const kiosk = await this.activeKiosk(req.token);
    if (!kiosk) throw new RpcError(403, NOT_A_KIOSK, { code: 'not_a_kiosk' });
    if (req.userId === undefined && req.username === undefined) throw new RpcError(400, WHO_FIRST, { field: 'userId' });
    const [candidate] = await this.db
      .select()
      .from(users)
      .where(req.userId !== undefined ? eq(users.id, req.userId) : eq(users.username, req.username!.trim().toLowerCase()))
      .limit(1);
    // Nobody who can sign in here (an unknown name, an account that is no worker, has no PIN or is
    // deactivated) goes through the same verification as a worker's wrong PIN, so the answer's time
    // tells nothing.
    const worker = candidate && candidate.role === 'worker' && candidate.pinHash && !candidate.disabledAt ? candidate : undefined;
    const named = candidate?.username ?? req.username?.trim().toLowerCase() ?? `user-${req.userId}`;
    let user: UserRow;
    let duress: boolean;
    try {
      ({ user, duress } = await this.verifier.verifyKioskStep(worker?.id, named, req.pin));
    } catch (err) {
      if (err instanceof RpcError && err.status === 423) {
        await this.uow.run((_tx, emit) => emit('identity.login.failed.v1', { username: named, reason: 'locked' }));
        throw new RpcError(423, PIN_LOCKED, { code: 'pin_locked' });
      }
      if (err instanceof RpcError && err.status < 500) throw new RpcError(401, INVALID_PIN, { code: 'invalid_pin' });
      throw err;
    }
    await this.uow.run(async (tx, emit) => {
      await tx.update(kiosks).set({ lastUsedAt: this.clock() }).where(eq(kiosks.id, kiosk.id));
      await emit('identity.login.succeeded.v1', { userId: user.id, username: user.username, method: 'pin' });
    });
    return {
      user: toUserView(user),
      kioskId: kiosk.id,
      kioskLocation: kiosk.location,
      ...(kiosk.locationId !== null ? { kioskLocationId: kiosk.locationId } : {}),
      ...(duress ? { duress } : {}),
    };
  }

  private async activeKiosk(token: string): Promise<KioskRow | undefined> {
    const [row] = await this.db
      .select()
      .from(kiosks)
      .where(and(eq(kiosks.tokenHash, kioskTokenHash(token)), isNull(kiosks.revokedAt)))
      .limit(1);
    return row;
  }
}
