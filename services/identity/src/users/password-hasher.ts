import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes): slow on purpose. */
@Injectable()
export class PasswordHasher {
  private dummy?: Promise<string>;

  hash(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  /**
   * A generated temporary password (temporaryPassword(): ~80 random bits) for a bulk import, where
   * the default cost would take 20 minutes for 10,000 accounts. argon2's cost protects passwords a
   * person chose, which can be guessed; 2^80 guesses are out of reach at any cost, so one pass over
   * 4 MiB (about 1 ms) loses nothing. The account must replace it (password_is_temporary), and the
   * new one gets the default cost. Never use this for a password a person chose.
   */
  hashGenerated(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
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
