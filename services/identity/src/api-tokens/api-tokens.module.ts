import { Module } from '@nestjs/common';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';

/** Machines' API tokens, which the gateway checks on every request that carries one. */
@Module({ controllers: [ApiTokensController], providers: [ApiTokensService] })
export class ApiTokensModule {}
