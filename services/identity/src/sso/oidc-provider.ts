import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  /** Undefined: a public client (PKCE alone). */
  clientSecret?: string;
}

/** Seconds an answer from the provider may take: a stalled provider must not hold a sign-in forever. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** Plain HTTP is the provider's only on this machine (a test provider, a local Keycloak). */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
}

/**
 * The organisation's provider as openid-client sees it: discovered once per setting (issuer,
 * client, secret) and kept, so a sign-in costs the provider two requests (token, and its keys
 * when they rotate), and discovered again after a failure.
 */
@Injectable()
export class OidcProvider {
  private cached?: { key: string; config: Promise<oidc.Configuration> };

  configuration(s: OidcClientSettings): Promise<oidc.Configuration> {
    const key = createHash('sha256')
      .update(JSON.stringify([s.issuer, s.clientId, s.clientSecret ?? null]))
      .digest('hex');
    if (this.cached?.key === key) return this.cached.config;
    const issuer = new URL(s.issuer);
    const config = oidc.discovery(
      issuer,
      s.clientId,
      { id_token_signed_response_alg: 'RS256' },
      s.clientSecret !== undefined ? oidc.ClientSecretBasic(s.clientSecret) : oidc.None(),
      { execute: isLoopback(issuer) ? [oidc.allowInsecureRequests] : [], timeout: PROVIDER_TIMEOUT_SECONDS },
    );
    this.cached = { key, config };
    config.catch(() => {
      if (this.cached?.key === key) this.cached = undefined;
    });
    return config;
  }

  /** Where to send the browser, with the checks the callback must find again. */
  async begin(s: OidcClientSettings, redirectUri: string) {
    const config = await this.configuration(s);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { authorizationUrl: url.href, state, nonce, codeVerifier };
  }

  /**
   * Redeems the code and checks the ID token (issuer, audience, signature, expiry, nonce, state,
   * PKCE): openid-client throws on any mismatch.
   */
  async complete(s: OidcClientSettings, callbackUrl: string, checks: { state: string; nonce: string; codeVerifier: string }) {
    const config = await this.configuration(s);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callbackUrl), {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new Error('the provider sent no ID token');
    return { claims: claims as Record<string, unknown>, idToken: tokens.id_token };
  }

  /** The provider's sign-out address, or undefined when it offers none. */
  async logoutUrl(s: OidcClientSettings, idToken: string, postLogoutRedirectUri: string): Promise<string | undefined> {
    const config = await this.configuration(s);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri }).href;
  }
}
