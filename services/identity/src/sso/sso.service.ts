import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CONFIG, DB, LOGGER, UnitOfWork, type BaseConfig, type Db, type Logger, type Tx } from '@lws/platform';
import type { IdentityConfig } from '../config';
import { externalIdentities, ssoSettings, teams, users, type SsoGroupTeam, type SsoSettingsRow, type UserRow } from '../db/schema';
import { toUserView } from '../users/user-view';
import { UsersService } from '../users/users.service';
import { isLoopback, OidcProvider, type OidcClientSettings } from './oidc-provider';
import { SecretBox } from './secret-box';

type SettingsView = CommandMap['identity.sso.get_settings.v1']['reply'];
type SetSettings = CommandMap['identity.sso.set_settings.v1']['request'];

export const SSO_OFF = 'Single sign-on is not turned on';
export const SSO_FAILED = "The identity provider's answer could not be verified";
export const SSO_REFUSED = 'No LWS account may sign in with this identity';
export const FROM_ENVIRONMENT = "These settings come from the server's environment (SSO_*) and can only be changed there";

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Why a verified identity names no account that may sign in: logged, never shown to the browser. */
type Refusal = 'unknown' | 'disabled' | 'domain' | 'no_team' | 'username_taken' | 'no_subject' | 'linked_elsewhere';

/**
 * Single sign-on: the settings, the conversation with the provider, and which account a verified
 * identity names. An account is found by issuer + subject; by e-mail only when the superadmin
 * allows it; created only when just-in-time creation is on and a group names its team. A
 * deactivated account is refused whatever the provider says. The PIN is untouched: SSO replaces
 * only the password.
 */
@Injectable()
export class SsoService implements OnModuleInit {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CONFIG) private readonly config: IdentityConfig & BaseConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly secrets: SecretBox,
    private readonly provider: OidcProvider,
    private readonly users: UsersService,
  ) {}

  /** With SSO_ISSUER set, the environment's settings replace the row at every start. */
  async onModuleInit(): Promise<void> {
    const c = this.config;
    if (!c.SSO_ISSUER) {
      // Settings once taken from the environment stop applying when it no longer gives them.
      await this.db.update(ssoSettings).set({ fromEnvironment: false, enabled: false }).where(eq(ssoSettings.fromEnvironment, true));
      return;
    }
    const values = {
      enabled: true,
      displayName: c.SSO_DISPLAY_NAME,
      issuer: c.SSO_ISSUER,
      clientId: c.SSO_CLIENT_ID ?? '',
      clientSecretEnc: null,
      subjectClaim: c.SSO_SUBJECT_CLAIM,
      emailDomains: splitList(c.SSO_EMAIL_DOMAINS),
      passwordLogin: c.SSO_PASSWORD_LOGIN,
      jitEnabled: c.SSO_JIT,
      groupsClaim: c.SSO_GROUPS_CLAIM,
      groupTeams: splitList(c.SSO_GROUP_TEAMS).map((pair) => {
        const at = pair.lastIndexOf('=');
        return { group: pair.slice(0, at).trim(), teamId: Number(pair.slice(at + 1)) };
      }),
      linkByEmail: c.SSO_LINK_BY_EMAIL,
      fromEnvironment: true,
      updatedAt: new Date(),
    };
    await this.db
      .insert(ssoSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: ssoSettings.id, set: { ...values, version: sql`${ssoSettings.version} + 1` } });
  }

  async settings(): Promise<SettingsView> {
    return view(await this.row());
  }

  async publicSettings(): Promise<CommandMap['identity.sso.public.v1']['reply']> {
    const row = await this.row();
    return { enabled: row.enabled, displayName: row.displayName, passwordLogin: row.passwordLogin };
  }

  async setSettings(req: SetSettings): Promise<SettingsView> {
    const current = await this.row();
    if (current.fromEnvironment) throw new RpcError(409, FROM_ENVIRONMENT);
    const emailDomains = [...new Set(req.emailDomains.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
    emailDomains.forEach((d, i) => {
      if (!DOMAIN.test(d)) throw new RpcError(400, `"${d}" is not a domain name`, { field: `emailDomains.${i}` });
    });
    const issuer = req.issuer.trim();
    const clientId = req.clientId.trim();
    const displayName = req.displayName.trim();
    if (issuer) checkIssuer(issuer);
    if (req.enabled) {
      if (!issuer) throw new RpcError(400, 'The issuer is required to turn single sign-on on', { field: 'issuer' });
      if (!clientId) throw new RpcError(400, 'The client ID is required to turn single sign-on on', { field: 'clientId' });
      if (!displayName) throw new RpcError(400, 'The name shown on the login page is required', { field: 'displayName' });
    }
    const clientSecretEnc = req.clientSecret !== undefined ? this.secrets.seal(req.clientSecret, 'clientSecret') : current.clientSecretEnc;
    const groupTeams: SsoGroupTeam[] = req.groupTeams.map((g) => ({ group: g.group.trim(), teamId: g.teamId }));
    if (req.enabled) {
      // A mistyped issuer is found now, not by the first person who tries to sign in.
      const secret = clientSecretEnc ? this.secrets.open(clientSecretEnc) : undefined;
      try {
        await this.provider.configuration({ issuer, clientId, clientSecret: secret });
      } catch (err) {
        // The setting is what is wrong (or the provider is down): it is refused either way, by name.
        throw new RpcError(400, `The provider's discovery document could not be read from ${issuer}: ${describe(err)}`, {
          field: 'issuer',
        });
      }
    }
    return this.uow.run(async (tx, emit) => {
      const ids = [...new Set(groupTeams.map((g) => g.teamId))];
      const found = ids.length
        ? await tx
            .select({ id: teams.id })
            .from(teams)
            .where(sql`${teams.id} = any(${sql.param(ids)}::int[])`)
        : [];
      groupTeams.forEach((g, i) => {
        if (!g.group) throw new RpcError(400, 'A group is required', { field: `groupTeams.${i}.group` });
        if (!found.some((t) => t.id === g.teamId)) throw new RpcError(400, 'No such team', { field: `groupTeams.${i}.teamId` });
      });
      const values = {
        enabled: req.enabled,
        displayName,
        issuer,
        clientId,
        clientSecretEnc,
        subjectClaim: req.subjectClaim,
        emailDomains,
        passwordLogin: req.passwordLogin as SsoSettingsRow['passwordLogin'],
        jitEnabled: req.jitEnabled,
        groupsClaim: req.groupsClaim.trim(),
        groupTeams,
        linkByEmail: req.linkByEmail,
        updatedBy: req.actorId,
        updatedAt: new Date(),
      };
      const [row] = await tx
        .insert(ssoSettings)
        .values({ id: 1, ...values })
        .onConflictDoUpdate({ target: ssoSettings.id, set: { ...values, version: sql`${ssoSettings.version} + 1` } })
        .returning();
      await emit('identity.sso.settings_changed.v1', {
        changedBy: req.actorId,
        enabled: row.enabled,
        issuer: row.issuer,
        passwordLogin: row.passwordLogin,
        jitEnabled: row.jitEnabled,
      });
      return view(row);
    });
  }

  /** Whether a password sign-in of this role is allowed: with break-glass only, the superadmin's. */
  async passwordAllowed(role: UserRow['role']): Promise<{ allowed: boolean; displayName: string }> {
    const row = await this.row();
    return { allowed: !row.enabled || row.passwordLogin === 'everyone' || role === 'superadmin', displayName: row.displayName };
  }

  async begin(redirectUri: string): Promise<CommandMap['identity.sso.begin.v1']['reply']> {
    const client = await this.client();
    try {
      return await this.provider.begin(client, redirectUri);
    } catch (err) {
      this.logger.warn({ issuer: client.issuer, error: describe(err) }, 'single sign-on could not start: the provider did not answer');
      throw new RpcError(502, "The organisation's identity provider did not answer", { code: 'sso_unavailable' });
    }
  }

  async complete(req: CommandMap['identity.sso.complete.v1']['request']): Promise<CommandMap['identity.sso.complete.v1']['reply']> {
    const settings = await this.row();
    const client = await this.client(settings);
    let claims: Record<string, unknown>;
    let idToken: string;
    try {
      ({ claims, idToken } = await this.provider.complete(client, req.callbackUrl, req));
    } catch (err) {
      this.logger.warn({ issuer: client.issuer, error: describe(err) }, 'single sign-on refused: the provider answer did not verify');
      throw new RpcError(401, SSO_FAILED, { code: 'sso_failed' });
    }
    const user = await this.accountFor(settings, claims);
    return { user: toUserView(user), idToken, issuer: settings.issuer };
  }

  async logoutUrl(req: CommandMap['identity.sso.logout_url.v1']['request']): Promise<CommandMap['identity.sso.logout_url.v1']['reply']> {
    const settings = await this.row();
    if (!settings.enabled || settings.issuer !== req.issuer) return {};
    try {
      const url = await this.provider.logoutUrl(await this.client(settings), req.idToken, req.postLogoutRedirectUri);
      return url ? { url } : {};
    } catch (err) {
      // Signing out of LWS never waits on the provider.
      this.logger.warn({ issuer: settings.issuer, error: describe(err) }, "the provider's sign-out address could not be built");
      return {};
    }
  }

  private async accountFor(settings: SsoSettingsRow, claims: Record<string, unknown>): Promise<UserRow> {
    const subject = claims[settings.subjectClaim];
    const email = emailOf(claims);
    const refuse = (reason: Refusal, extra: Record<string, unknown> = {}): never => {
      this.logger.warn(
        { issuer: settings.issuer, reason, ...extra },
        'single sign-on refused: the identity names no account that may sign in',
      );
      throw new RpcError(403, SSO_REFUSED, { code: 'sso_refused' });
    };
    if (typeof subject !== 'string' || !subject) return refuse('no_subject', { claim: settings.subjectClaim });
    if (settings.emailDomains.length > 0 && !(email && settings.emailDomains.includes(email.slice(email.lastIndexOf('@') + 1)))) {
      return refuse('domain');
    }
    const outcome = await this.uow.run(async (tx, emit): Promise<{ user: UserRow } | { refused: Refusal }> => {
      let user = await this.linked(tx, settings.issuer, subject);
      if (!user && settings.linkByEmail && email) {
        user = await this.byEmail(tx, email);
        if (user) {
          const [other] = await tx
            .select({ subject: externalIdentities.subject })
            .from(externalIdentities)
            .where(and(eq(externalIdentities.issuer, settings.issuer), eq(externalIdentities.userId, user.id)));
          if (other) return { refused: 'linked_elsewhere' };
        }
      }
      if (!user && settings.jitEnabled) {
        const teamId = teamFor(settings, claims);
        if (teamId === undefined) return { refused: 'no_team' };
        const username = usernameOf(claims, email);
        if (!username) return { refused: 'no_subject' };
        user = await this.users.provisionWorkerIn(tx, emit, {
          username,
          name: nameOf(claims, username),
          teamId,
          ...(email ? { email } : {}),
        });
        if (!user) return { refused: 'username_taken' };
      }
      if (!user) return { refused: 'unknown' };
      if (user.disabledAt) return { refused: 'disabled' };
      await tx
        .insert(externalIdentities)
        .values({ issuer: settings.issuer, subject, userId: user.id, lastLoginAt: new Date() })
        .onConflictDoUpdate({ target: [externalIdentities.issuer, externalIdentities.subject], set: { lastLoginAt: new Date() } });
      await emit('identity.login.succeeded.v1', { userId: user.id, username: user.username, method: 'sso' });
      return { user };
    });
    if ('refused' in outcome) return refuse(outcome.refused, { subject });
    return outcome.user;
  }

  private async linked(tx: Tx, issuer: string, subject: string): Promise<UserRow | undefined> {
    const [row] = await tx
      .select({ user: users })
      .from(externalIdentities)
      .innerJoin(users, eq(users.id, externalIdentities.userId))
      .where(and(eq(externalIdentities.issuer, issuer), eq(externalIdentities.subject, subject)))
      .for('update');
    return row?.user;
  }

  /** The one account whose e-mail (or username) is this address; none when two claim it. */
  private async byEmail(tx: Tx, email: string): Promise<UserRow | undefined> {
    const rows = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email} or ${users.username} = ${email}`)
      .limit(2)
      .for('update');
    return rows.length === 1 ? rows[0] : undefined;
  }

  private async row(): Promise<SsoSettingsRow> {
    const [row] = await this.db.select().from(ssoSettings).where(eq(ssoSettings.id, 1));
    return row ?? DEFAULT_SETTINGS;
  }

  private async client(settings?: SsoSettingsRow): Promise<OidcClientSettings> {
    const s = settings ?? (await this.row());
    if (!s.enabled) throw new RpcError(503, SSO_OFF, { code: 'sso_disabled' });
    const secret = s.fromEnvironment ? this.config.SSO_CLIENT_SECRET : s.clientSecretEnc ? this.secrets.open(s.clientSecretEnc) : undefined;
    if (s.clientSecretEnc && secret === undefined) {
      this.logger.error('the stored SSO client secret cannot be opened: SECRETS_KEY changed or is missing; set the secret again');
    }
    return { issuer: s.issuer, clientId: s.clientId, ...(secret !== undefined ? { clientSecret: secret } : {}) };
  }
}

const DEFAULT_SETTINGS: SsoSettingsRow = {
  id: 1,
  enabled: false,
  displayName: '',
  issuer: '',
  clientId: '',
  clientSecretEnc: null,
  subjectClaim: 'sub',
  emailDomains: [],
  passwordLogin: 'everyone',
  jitEnabled: false,
  groupsClaim: 'groups',
  groupTeams: [],
  linkByEmail: false,
  fromEnvironment: false,
  version: 0,
  updatedBy: null,
  updatedAt: new Date(0),
};

function view(row: SsoSettingsRow): SettingsView {
  return {
    enabled: row.enabled,
    displayName: row.displayName,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: row.clientSecretEnc !== null,
    subjectClaim: row.subjectClaim as SettingsView['subjectClaim'],
    emailDomains: row.emailDomains,
    passwordLogin: row.passwordLogin,
    jitEnabled: row.jitEnabled,
    groupsClaim: row.groupsClaim,
    groupTeams: row.groupTeams,
    linkByEmail: row.linkByEmail,
    fromEnvironment: row.fromEnvironment,
  };
}

/** HTTPS, or plain HTTP on this machine only; no query or fragment (OIDC Discovery). */
function checkIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new RpcError(400, 'The issuer must be a URL, e.g. https://login.microsoftonline.com/<tenant>/v2.0', { field: 'issuer' });
  }
  if (url.search || url.hash) throw new RpcError(400, 'The issuer has no query or fragment', { field: 'issuer' });
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new RpcError(400, 'The issuer must use https', { field: 'issuer' });
  }
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

function emailOf(claims: Record<string, unknown>): string | undefined {
  // A provider that says the address is unverified is not trusted for it.
  if (claims.email_verified === false) return undefined;
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return email?.includes('@') ? email.trim().toLowerCase() : undefined;
}

function usernameOf(claims: Record<string, unknown>, email: string | undefined): string | undefined {
  const preferred = typeof claims.preferred_username === 'string' ? claims.preferred_username.trim().toLowerCase() : '';
  const username = preferred || email || '';
  return username.length >= 3 && username.length <= 100 ? username : undefined;
}

function nameOf(claims: Record<string, unknown>, username: string): string {
  const str = (k: string) => (typeof claims[k] === 'string' ? (claims[k] as string).trim() : '');
  const name = str('name') || [str('given_name'), str('family_name')].filter(Boolean).join(' ');
  return (name || username).slice(0, 100);
}

function teamFor(settings: SsoSettingsRow, claims: Record<string, unknown>): number | undefined {
  const raw = claims[settings.groupsClaim];
  const groups = new Set(Array.isArray(raw) ? raw.filter((g): g is string => typeof g === 'string') : typeof raw === 'string' ? [raw] : []);
  return settings.groupTeams.find((g) => groups.has(g.group))?.teamId;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}
