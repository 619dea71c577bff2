import { Body, Controller, Delete, Get, Param, Patch, Post, Req } from '@nestjs/common';
import { actorOf, PositiveIntPipe } from '../common/access';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { createContactSchema, updateContactSchema } from './profile.schema';
import { ProfileService } from './profile.service';

const contactId = () => new PositiveIntPipe('id', 'Invalid contact ID');

@Controller('api')
export class ContactsController {
  constructor(private readonly profile: ProfileService) {}

  @Get('users/:id/emergency-contacts')
  list(@Param('id', new PositiveIntPipe()) userId: number, @Req() req: AuthedRequest) {
    return this.profile.contacts(actorOf(req), userId);
  }

  @Post('emergency-contacts')
  create(@Body() body: unknown, @Req() req: AuthedRequest) {
    return this.profile.createContact(actorOf(req), parseInput(createContactSchema, body));
  }

  @Patch('emergency-contacts/:id')
  update(@Param('id', contactId()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    return this.profile.updateContact(actorOf(req), id, parseInput(updateContactSchema, body));
  }

  @Delete('emergency-contacts/:id')
  remove(@Param('id', contactId()) id: number, @Req() req: AuthedRequest) {
    return this.profile.deleteContact(actorOf(req), id);
  }
}
