import { Module } from '@nestjs/common';
import { KioskLocationBinding } from './kiosk-location-binding';
import { KiosksController } from './kiosks.controller';
import { KiosksService } from './kiosks.service';

@Module({ controllers: [KiosksController], providers: [KiosksService, KioskLocationBinding] })
export class KiosksModule {}
