import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, UnitOfWork, type Clock, type Db } from '@lws/platform';
import { kiosks, type KioskRow } from '../db/schema';
import { PIN_LOCKED } from '../credentials/messages';
import { PinVerifier } from '../credentials/pin-verifier';
import { toUserView } from '../users/user-view';
import { kioskTokenHash, newKioskToken } from './kiosk-token';
import { toKioskView } from './kiosk-view';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];

export const NOT_A_KIOSK = 'This device is not an enrolled kiosk';
export const INVALID_PIN = 'Invalid PIN';
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
    return kiosk ? { enrolled: true, name: kiosk.name, location: kiosk.location } : { enrolled: false };
  }

  /**
   * Only workers log in at a kiosk; any other account's PIN is answered like a PIN nobody has.
   * A locked account is refused even with its right PIN.
   */
  async pinLogin(req: Request<'identity.kiosk.pin_login.v1'>): Promise<Reply<'identity.kiosk.pin_login.v1'>> {
    const kiosk = await this.activeKiosk(req.token);
    if (!kiosk) throw new RpcError(403, NOT_A_KIOSK, { code: 'not_a_kiosk' });
    const outcome = await this.uow.run(async (tx, emit) => {
      const found = await this.verifier.identify(tx, req.pin, (user) => user.role === 'worker');
      if (found.kind === 'locked') {
        await emit('identity.login.failed.v1', { username: found.user.username, reason: 'locked' });
      } else if (found.kind === 'ok') {
        await tx.update(kiosks).set({ lastUsedAt: this.clock() }).where(eq(kiosks.id, kiosk.id));
        await emit('identity.login.succeeded.v1', { userId: found.user.id, username: found.user.username, method: 'pin' });
      }
      return found;
    });
    if (outcome.kind === 'unknown') throw new RpcError(401, INVALID_PIN, { code: 'invalid_pin' });
    if (outcome.kind === 'locked') throw new RpcError(423, PIN_LOCKED, { code: 'pin_locked' });
    return { user: toUserView(outcome.user), kioskId: kiosk.id };
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
