import { Global, Module } from '@nestjs/common';
import { FakeProviderController } from '../fake/fake-provider.controller';
import { LocalSecrets } from './local-secrets';
import { ProviderSettings } from './provider-settings';
import { TwilioProvider } from './twilio-provider';

/** Twilio through its SDK (or the local fake provider), and development secrets. */
@Global()
@Module({
  controllers: [FakeProviderController],
  providers: [LocalSecrets, ProviderSettings, TwilioProvider],
  exports: [LocalSecrets, ProviderSettings, TwilioProvider],
})
export class ProviderModule {}
