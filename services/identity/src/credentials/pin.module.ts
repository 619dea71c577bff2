import { Global, Module } from '@nestjs/common';
import { PinAssigner } from './pin-assigner';
import { PinHasher } from './pin-hasher';
import { PinVerifier } from './pin-verifier';

/**
 * PIN hashing, assignment and the one verification path. Global because every identity
 * feature that touches a PIN (user creation, PIN change, kiosks, later shift steps) must use
 * these same providers rather than a copy.
 */
@Global()
@Module({
  providers: [PinHasher, PinAssigner, PinVerifier],
  exports: [PinHasher, PinAssigner, PinVerifier],
})
export class PinModule {}
