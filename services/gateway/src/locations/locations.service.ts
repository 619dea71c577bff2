import { Inject, Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import type { createLocationSchema, updateLocationSchema } from './locations.schema';

type LocationView = CommandMap['locations.location.list.v1']['reply']['locations'][number];

/** What the browser gets: the spec's location option. */
export function browserLocation(l: LocationView) {
  return { id: l.id, name: l.name, isActive: l.isActive, createdAt: l.createdAt };
}

@Injectable()
export class LocationsService {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  async list() {
    const { locations } = await this.rpc.send('locations.location.list.v1', {});
    return locations.map(browserLocation);
  }

  async create(input: z.infer<typeof createLocationSchema>) {
    const { location } = await this.rpc.send('locations.location.create.v1', { name: input.name, isActive: input.isActive ?? true });
    return browserLocation(location);
  }

  async update(locationId: number, input: z.infer<typeof updateLocationSchema>) {
    const { location } = await this.rpc.send('locations.location.update.v1', { locationId, ...input });
    return browserLocation(location);
  }

  async delete(locationId: number) {
    await this.rpc.send('locations.location.delete.v1', { locationId });
    return { ok: true };
  }
}
