import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): slow on purpose. */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password).catch(() => false);
  }

  /**
   * Spends the same time as a real check when the username does not exist, so response
   * times do not tell an attacker which usernames are real.
   */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummy ??= this.hash('lws-timing-equaliser');
    await this.verify(await this.dummy, password);
    return false;
  }
}
