import { Module } from '@nestjs/common';
import { ApiTokensController } from './api-tokens.controller';

/** The screens' routes for machines' API tokens; the tokens themselves are checked by SessionGuard. */
@Module({ controllers: [ApiTokensController] })
export class ApiTokensModule {}
