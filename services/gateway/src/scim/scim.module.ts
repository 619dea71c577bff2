import { Module } from '@nestjs/common';
import { ScimController } from './scim.controller';
import { ScimTokensController } from './scim-tokens.controller';

/** SCIM provisioning at /scim/v2, and the superadmin's tokens for it. */
@Module({ controllers: [ScimController, ScimTokensController] })
export class ScimModule {}
