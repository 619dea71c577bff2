import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface IdpClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  token_endpoint_auth_method?: string;
}

export interface TestIdp {
  issuer: string;
  /** Makes the provider's ID tokens name another audience, have expired, or name another issuer. */
  tamper(mode: 'aud' | 'exp' | 'iss' | 'none'): Promise<void>;
  stop(): Promise<void>;
}

/** panva's oidc-provider on 127.0.0.1 (see idp-server.mjs), as the organisation's identity provider. */
export async function startTestIdp(clients: IdpClient[], accounts: Record<string, Record<string, unknown>>): Promise<TestIdp> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'idp-server.mjs')], {
    env: { ...process.env, IDP_CLIENTS: JSON.stringify(clients), IDP_ACCOUNTS: JSON.stringify(accounts), NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c) => {
    stderr += String(c);
  });
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the test identity provider exited (${code}): ${stderr}`)));
  });
  return {
    issuer,
    async tamper(mode) {
      const res = await fetch(`${issuer}/__tamper`, { method: 'POST', body: JSON.stringify({ mode }) });
      if (res.status !== 204) throw new Error(`tamper answered ${res.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** A browser's cookies, by host; enough for one sign-in's redirects. */
export class CookieJar {
  private readonly jar = new Map<string, Map<string, string>>();

  header(url: string): string {
    return [...(this.jar.get(new URL(url).host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  store(url: string, res: Response): void {
    const host = new URL(url).host;
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(host, cookies);
  }

  get(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).host)?.get(name);
  }

  set(url: string, name: string, value: string): void {
    const host = new URL(url).host;
    this.jar.set(host, (this.jar.get(host) ?? new Map()).set(name, value));
  }
}

export interface SsoRun {
  /** The gateway's callback URL the provider sent the browser to (undefined if it never got there). */
  callbackUrl?: string;
  /** Where the gateway sent the browser at the end. */
  finalLocation: string;
  jar: CookieJar;
}

/**
 * A browser's sign-in through the provider: LWS's "Sign in with" link, the provider's own login
 * page (any password; `login` names the account), back to LWS. Stops at the first answer that is
 * not a redirect, or once the gateway has answered the callback.
 */
export async function signInWithIdp(gatewayUrl: string, login: string, opts: { next?: string; jar?: CookieJar } = {}): Promise<SsoRun> {
  const jar = opts.jar ?? new CookieJar();
  let url = `${gatewayUrl}/api/auth/sso/start${opts.next ? `?next=${encodeURIComponent(opts.next)}` : ''}`;
  let callbackUrl: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, res);
    if (url.includes('/api/auth/sso/callback')) return { callbackUrl, finalLocation: res.headers.get('location') ?? '', jar };
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      if (url.includes('/api/auth/sso/callback')) callbackUrl = url;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) return { callbackUrl, finalLocation: `(stopped at ${res.status} ${url})`, jar };
    const formUrl = new URL(action.replace(/&amp;/g, '&'), url).href;
    const post = await fetch(formUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(formUrl), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
    });
    jar.store(formUrl, post);
    const next = post.headers.get('location');
    if (!next) return { callbackUrl, finalLocation: `(login form answered ${post.status})`, jar };
    url = new URL(next, formUrl).href;
    if (url.includes('/api/auth/sso/callback')) callbackUrl = url;
  }
  throw new Error('too many redirects');
}
