import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit } from '@lws/platform';
import { DEFAULT_LOCATION } from '@lws/rules';
import type { LocationRow } from '../db/schema';
import { isNameTaken, LocationsRepository, type LocationChanges } from './locations.repository';
import { toLocationView } from './location-view';

type Cmd<P extends keyof CommandMap> = CommandMap[P];

export const NAME_TAKEN = 'A location with this name already exists';

const notFound = () => new RpcError(404, 'Location not found', { field: 'id' });
const nameTaken = () => new RpcError(409, NAME_TAKEN, { field: 'name', code: 'name_taken' });

@Injectable()
export class LocationsService {
  constructor(
    private readonly locations: LocationsRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(req: Cmd<'locations.location.list.v1'>['request']): Promise<Cmd<'locations.location.list.v1'>['reply']> {
    const rows = await this.locations.list(req.activeOnly === true);
    return { locations: rows.map(toLocationView) };
  }

  async create(req: Cmd<'locations.location.create.v1'>['request']): Promise<Cmd<'locations.location.create.v1'>['reply']> {
    const row = await this.uow.run(async (tx, emit) => {
      const created = await this.locations.insert(tx, { name: req.name.trim(), isActive: req.isActive ?? true }, this.clock());
      if (!created) throw nameTaken();
      await announce(emit, 'locations.location.created.v1', created);
      return created;
    });
    return { location: toLocationView(row) };
  }

  async update(req: Cmd<'locations.location.update.v1'>['request']): Promise<Cmd<'locations.location.update.v1'>['reply']> {
    let row: LocationRow;
    try {
      row = await this.uow.run(async (tx, emit) => {
        const current = await this.locations.findForUpdate(tx, req.locationId);
        if (!current) throw notFound();
        const changes: LocationChanges = {};
        const name = req.name?.trim();
        if (name !== undefined && name !== current.name) changes.name = name;
        if (req.isActive !== undefined && req.isActive !== current.isActive) changes.isActive = req.isActive;
        if (Object.keys(changes).length === 0) return current;
        const updated = await this.locations.update(tx, current.id, changes, this.clock());
        await announce(emit, 'locations.location.updated.v1', updated);
        return updated;
      });
    } catch (err) {
      if (isNameTaken(err)) throw nameTaken();
      throw err;
    }
    return { location: toLocationView(row) };
  }

  async delete(req: Cmd<'locations.location.delete.v1'>['request']): Promise<Cmd<'locations.location.delete.v1'>['reply']> {
    await this.uow.run(async (tx, emit) => {
      const current = await this.locations.findForUpdate(tx, req.locationId);
      if (!current) throw notFound();
      await this.locations.delete(tx, current.id);
      await emit('locations.location.deleted.v1', {
        locationId: current.id,
        name: current.name,
        ...(req.actorId !== undefined ? { deletedBy: req.actorId } : {}),
      });
    });
    return { ok: true };
  }

  /**
   * The first start of a deployment creates the default location with its event. Later starts
   * (and replicas racing the first) do nothing, so an admin who deletes it does not see it return.
   */
  async seedDefault(): Promise<LocationRow | undefined> {
    return this.uow.run(async (tx, emit) => {
      if (!(await this.locations.claimSeedStep(tx, 'default-location'))) return undefined;
      const created = await this.locations.insert(tx, { name: DEFAULT_LOCATION, isActive: true }, this.clock());
      if (created) await announce(emit, 'locations.location.created.v1', created);
      return created;
    });
  }
}

function announce(emit: Emit, subject: 'locations.location.created.v1' | 'locations.location.updated.v1', row: LocationRow) {
  return emit(subject, { locationId: row.id, name: row.name, isActive: row.isActive });
}
