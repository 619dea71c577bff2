import { Body, Controller, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { actorOf, PositiveIntPipe } from '../common/access';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { settingsSchema, upsertSettingsSchema } from './profile.schema';
import { ProfileService } from './profile.service';

/** Two routes for one operation: the spec's clients use both. */
@Controller('api')
export class SettingsController {
  constructor(private readonly profile: ProfileService) {}

  @Patch('users/:id/settings')
  update(@Param('id', new PositiveIntPipe()) userId: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    return this.profile.saveSettings(actorOf(req), userId, parseInput(settingsSchema, body));
  }

  @Post('settings')
  @HttpCode(200)
  upsert(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { userId, ...settings } = parseInput(upsertSettingsSchema, body);
    return this.profile.saveSettings(actorOf(req), userId, settings);
  }
}
