import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import twilio from 'twilio';

/**
 * A local stand-in for the parts of Twilio's REST API LWS uses (Messages and Calls), for
 * embedded mode and tests. The real SDK talks to it; it answers with Twilio-shaped JSON and
 * errors, and plays the callee: accepting a call fetches the call's TwiML, presses 1 on its
 * Gather and reports the call completed, every webhook signed with the account's auth token
 * so the real X-Twilio-Signature validation runs. Never used when a Twilio account is configured.
 */

const API = '/2010-04-01';
const E164 = /^\+[1-9][0-9]{1,14}$/;

export type FakeCallStatus = 'queued' | 'ringing' | 'in-progress' | 'completed' | 'no-answer' | 'busy' | 'failed' | 'canceled';

export interface FakeMessage {
  sid: string;
  accountSid: string;
  channel: 'sms' | 'whatsapp';
  to: string;
  from: string;
  body: string;
  status: string;
  createdAt: string;
}

export interface FakeCall {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  status: FakeCallStatus;
  timeoutSeconds: number;
  createdAt: string;
  /** What the callee heard from the call's TwiML (set once answered). */
  say?: string;
  /** The voice and language it was said in ("Polly.Gwyneth cy-GB"), when the TwiML named them. */
  voice?: string;
  digits?: string;
  /** What the callee heard after pressing the key. */
  confirmation?: string;
}

export interface FakeTwilioOptions {
  /** When given, requests must authenticate with exactly these; otherwise any account is accepted and its token remembered for signing. */
  accountSid?: string;
  authToken?: string;
  port?: number;
  /** Report an unanswered call as no-answer after its Timeout, as Twilio does (default true). */
  autoNoAnswer?: boolean;
}

interface CallState extends FakeCall {
  url?: string;
  twiml?: string;
  statusCallback?: string;
  timer?: NodeJS.Timeout;
  sequence: number;
}

interface MessageState extends FakeMessage {
  statusCallback?: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What failNext makes the next API requests answer. */
interface Failures {
  remaining: number;
  status: number;
  /** Sent as Retry-After (seconds), as Twilio may with a 429. */
  retryAfterSeconds?: number;
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

function unescapeXml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function says(twiml: string): string | undefined {
  const texts = [...twiml.matchAll(/<Say[^>]*>([\s\S]*?)<\/Say>/g)].map((m) => unescapeXml(m[1]).trim());
  return texts.length > 0 ? texts.join(' ') : undefined;
}

/** The voice the first <Say> names, and its language. */
function voiceOfSay(twiml: string): string | undefined {
  const say = /<Say([^>]*)>/.exec(twiml)?.[1] ?? '';
  const named = ['voice', 'language'].map((a) => new RegExp(`\\b${a}="([^"]*)"`).exec(say)?.[1]).filter(Boolean);
  return named.length > 0 ? named.join(' ') : undefined;
}

/** The text of a messaging TwiML's <Message>, what Twilio would text back. */
function messageText(twiml: string): string | undefined {
  const m = /<Message[^>]*>([\s\S]*?)<\/Message>/.exec(twiml);
  return m ? unescapeXml(m[1]).trim() : undefined;
}

function gatherAction(twiml: string): string | undefined {
  const gather = /<Gather\b([^>]*)>/.exec(twiml);
  if (!gather) return undefined;
  const action = /\baction="([^"]*)"/.exec(gather[1]);
  return action ? unescapeXml(action[1]) : undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export class FakeTwilio {
  readonly messages: MessageState[] = [];
  readonly calls: CallState[] = [];
  /** Webhook deliveries that did not get a 2xx, for diagnosing a test. */
  readonly webhookFailures: { url: string; status: number | string }[] = [];
  private readonly tokens = new Map<string, string>();
  private readonly optedIn = new Set<string>();
  private failures: Failures = { remaining: 0, status: 500 };
  private readonly pending = new Set<Promise<unknown>>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly opts: FakeTwilioOptions,
  ) {}

  /** Listens on 127.0.0.1 (a free port unless one is given). */
  static async start(opts: FakeTwilioOptions = {}): Promise<FakeTwilio> {
    let fake: FakeTwilio | undefined;
    const server = createServer((req, res) => void fake!.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    fake = new FakeTwilio(server, `http://127.0.0.1:${port}`, opts);
    return fake;
  }

  async close(): Promise<void> {
    for (const c of this.calls) clearTimeout(c.timer);
    await Promise.allSettled([...this.pending]);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
  }

  /** The number may now receive WhatsApp messages (as after joining the sandbox). */
  optIn(number: string): void {
    this.optedIn.add(number);
  }

  /**
   * The next `count` API requests answer with `status` (default 500); with `retryAfterSeconds`,
   * carrying that Retry-After header (a 429 from a provider that wants to be left alone a while).
   */
  failNext(count: number, status = 500, retryAfterSeconds?: number): void {
    this.failures = { remaining: count, status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) };
  }

  /**
   * API requests wait until the returned function is called (a provider that is slow to answer),
   * for tests that need a message caught mid-send.
   */
  hold(): () => void {
    let release: () => void = () => undefined;
    this.held = new Promise<void>((r) => (release = r));
    return () => {
      this.held = undefined;
      release();
    };
  }

  private held: Promise<void> | undefined;

  /** How many API requests are waiting on hold(). */
  waiting = 0;

  reset(): void {
    for (const c of this.calls) clearTimeout(c.timer);
    this.messages.length = 0;
    this.calls.length = 0;
    this.webhookFailures.length = 0;
    this.optedIn.clear();
    this.failures = { remaining: 0, status: 500 };
  }

  /**
   * A text from `from` to LWS's number `to`, delivered as Twilio delivers one (a signed POST to the
   * inbound SMS webhook, `url`); what the TwiML answer texts back is recorded as a message sent and
   * returned (a worker replies to a reminder with their PIN).
   */
  async inboundSms(from: string, to: string, body: string, url: string): Promise<{ reply?: string; status: number }> {
    const accountSid = this.opts.accountSid ?? [...this.tokens.keys()][0] ?? '';
    const answer = await this.signedPost(accountSid, url, {
      AccountSid: accountSid,
      MessageSid: sid('SM'),
      From: from,
      To: to,
      Body: body,
      NumMedia: '0',
    });
    const reply = answer.status === 200 ? messageText(answer.body) : undefined;
    if (reply) {
      this.messages.push({
        sid: sid('SM'),
        accountSid,
        channel: 'sms',
        to: from,
        from: to,
        body: reply,
        status: 'delivered',
        createdAt: new Date().toISOString(),
      });
    }
    return { ...(reply ? { reply } : {}), status: answer.status };
  }

  /** The callee answers, hears the TwiML and presses 1. Resolves once every webhook has answered. */
  async accept(callSid: string, digits = '1'): Promise<FakeCall> {
    const call = this.ringingCall(callSid);
    clearTimeout(call.timer);
    call.status = 'in-progress';
    const base = this.callParams(call, 'in-progress');
    let twiml = call.twiml;
    if (!twiml && call.url) twiml = (await this.signedPost(call.accountSid, call.url, base)).body;
    if (twiml) {
      call.say = says(twiml);
      call.voice = voiceOfSay(twiml);
      const action = gatherAction(twiml);
      if (action) {
        call.digits = digits;
        const target = new URL(action, call.url ?? this.url).toString();
        const reply = await this.signedPost(call.accountSid, target, { ...base, Digits: digits, FinishedOnKey: '' });
        call.confirmation = says(reply.body);
      }
    }
    await this.finish(call, 'completed');
    return this.view(call);
  }

  /** Nobody answers: the call ends as no-answer. */
  async ignore(callSid: string): Promise<FakeCall> {
    const call = this.ringingCall(callSid);
    clearTimeout(call.timer);
    await this.finish(call, 'no-answer');
    return this.view(call);
  }

  view(call: CallState): FakeCall {
    const { url: _u, twiml: _t, statusCallback: _s, timer: _timer, sequence: _q, ...rest } = call;
    return rest;
  }

  private ringingCall(callSid: string): CallState {
    const call = this.calls.find((c) => c.sid === callSid);
    if (!call) throw new HttpError(404, 20404, `The requested resource /Calls/${callSid} was not found`);
    if (call.status !== 'ringing' && call.status !== 'queued') throw new HttpError(409, 0, `Call ${callSid} is already ${call.status}`);
    return call;
  }

  private async finish(call: CallState, status: FakeCallStatus): Promise<void> {
    call.status = status;
    if (!call.statusCallback) return;
    await this.signedPost(call.accountSid, call.statusCallback, {
      ...this.callParams(call, status),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(call.sequence++),
      Timestamp: new Date().toUTCString(),
      ...(status === 'completed' ? { CallDuration: '12', Duration: '1' } : {}),
    });
  }

  private callParams(call: CallState, status: string): Record<string, string> {
    return {
      AccountSid: call.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      Direction: 'outbound-api',
      From: call.from,
      To: call.to,
    };
  }

  private async signedPost(accountSid: string, url: string, params: Record<string, string>): Promise<{ status: number; body: string }> {
    const token = this.tokens.get(accountSid) ?? this.opts.authToken ?? '';
    const signature = twilio.getExpectedTwilioSignature(token, url, params);
    const work = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(params).toString(),
    }).then(
      async (r) => {
        const body = await r.text();
        if (!r.ok) this.webhookFailures.push({ url, status: r.status });
        return { status: r.status, body };
      },
      (err: unknown) => {
        this.webhookFailures.push({ url, status: err instanceof Error ? err.message : String(err) });
        return { status: 0, body: '' };
      },
    );
    this.pending.add(work);
    try {
      return await work;
    } finally {
      this.pending.delete(work);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', this.url);
      const raw = await readBody(req);
      const form = new URLSearchParams(raw);
      if (url.pathname.startsWith('/_fake/')) return await this.control(req.method ?? 'GET', url.pathname, raw, res);
      const m = new RegExp(`^${API}/Accounts/(AC[0-9a-fA-F]{32})/(Messages|Calls)(?:/([A-Z]{2}[0-9a-f]{32}))?\\.json$`).exec(url.pathname);
      if (!m) throw new HttpError(404, 20404, `The requested resource ${url.pathname} was not found`);
      const [, accountSid, resource, itemSid] = m;
      this.authenticate(req, accountSid);
      if (this.held) {
        this.waiting += 1;
        await this.held;
        this.waiting -= 1;
      }
      if (this.failures.remaining > 0) {
        const { status, retryAfterSeconds } = this.failures;
        this.failures.remaining -= 1;
        const headers: Record<string, string> = retryAfterSeconds !== undefined ? { 'retry-after': String(retryAfterSeconds) } : {};
        if (status === 429) throw new HttpError(429, 20429, 'Too Many Requests (simulated by the fake provider)', headers);
        throw new HttpError(status, 20500, 'Internal Server Error (simulated by the fake provider)', headers);
      }
      if (req.method === 'POST' && !itemSid) {
        const created = resource === 'Messages' ? this.createMessage(accountSid, form) : this.createCall(accountSid, form);
        return this.json(res, 201, created);
      }
      if (req.method === 'GET' && itemSid) {
        const found =
          resource === 'Messages'
            ? this.messages.find((x) => x.sid === itemSid && x.accountSid === accountSid)
            : this.calls.find((x) => x.sid === itemSid && x.accountSid === accountSid);
        if (!found) throw new HttpError(404, 20404, `The requested resource ${url.pathname} was not found`);
        return this.json(res, 200, resource === 'Messages' ? this.messageJson(found as MessageState) : this.callJson(found as CallState));
      }
      if (req.method === 'GET') {
        const list =
          resource === 'Messages'
            ? this.messages.filter((x) => x.accountSid === accountSid).map((x) => this.messageJson(x))
            : this.calls.filter((x) => x.accountSid === accountSid).map((x) => this.callJson(x));
        return this.json(res, 200, {
          [resource.toLowerCase()]: [...list].reverse(),
          page: 0,
          page_size: 50,
          start: 0,
          end: Math.max(0, list.length - 1),
          uri: url.pathname,
          first_page_uri: url.pathname,
          next_page_uri: null,
          previous_page_uri: null,
        });
      }
      throw new HttpError(405, 20004, 'Method not allowed');
    } catch (err) {
      const e = err instanceof HttpError ? err : new HttpError(500, 20500, 'Internal Server Error');
      this.json(
        res,
        e.status,
        { code: e.code, message: e.message, more_info: `https://www.twilio.com/docs/errors/${e.code}`, status: e.status },
        e.headers,
      );
    }
  }

  private authenticate(req: IncomingMessage, accountSid: string): void {
    const header = req.headers.authorization ?? '';
    const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const user = decoded.slice(0, colon);
    const pass = decoded.slice(colon + 1);
    const ok =
      colon > 0 &&
      user === accountSid &&
      pass.length > 0 &&
      (this.opts.accountSid === undefined || (user === this.opts.accountSid && pass === this.opts.authToken));
    if (!ok) throw new HttpError(401, 20003, 'Authenticate');
    this.tokens.set(accountSid, pass);
  }

  private createMessage(accountSid: string, form: URLSearchParams) {
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    const body = form.get('Body') ?? '';
    const whatsapp = to.startsWith('whatsapp:');
    const number = whatsapp ? to.slice('whatsapp:'.length) : to;
    if (!from) throw new HttpError(400, 21603, "A 'From' phone number is required.");
    if (!body) throw new HttpError(400, 21602, 'Message body is required.');
    if (!E164.test(number)) throw new HttpError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (whatsapp && !this.optedIn.has(number)) {
      throw new HttpError(
        400,
        63005,
        `Channel did not accept given content: ${number} has not opted in to WhatsApp messages from this sender.`,
      );
    }
    const message: MessageState = {
      sid: sid('SM'),
      accountSid,
      channel: whatsapp ? 'whatsapp' : 'sms',
      to,
      from,
      body,
      status: 'queued',
      createdAt: new Date().toISOString(),
      statusCallback: form.get('StatusCallback') ?? undefined,
    };
    this.messages.push(message);
    const json = this.messageJson(message);
    if (message.statusCallback) {
      // After the reply, as Twilio does: the sender has recorded the sid before the callbacks arrive.
      setTimeout(() => void this.reportMessage(message), 20);
    }
    return json;
  }

  private async reportMessage(message: MessageState): Promise<void> {
    for (const status of ['sent', 'delivered']) {
      message.status = status;
      await this.signedPost(message.accountSid, message.statusCallback!, {
        AccountSid: message.accountSid,
        ApiVersion: '2010-04-01',
        From: message.from,
        MessageSid: message.sid,
        MessageStatus: status,
        SmsSid: message.sid,
        SmsStatus: status,
        To: message.to,
      });
    }
  }

  private createCall(accountSid: string, form: URLSearchParams) {
    const to = form.get('To') ?? '';
    const from = form.get('From') ?? '';
    if (!from) throw new HttpError(400, 21603, "A 'From' phone number is required.");
    if (!E164.test(to)) throw new HttpError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    const url = form.get('Url') ?? undefined;
    const twiml = form.get('Twiml') ?? undefined;
    if (!url && !twiml) throw new HttpError(400, 21205, 'Either Url or Twiml is required.');
    const timeoutSeconds = Number(form.get('Timeout') ?? 60) || 60;
    const call: CallState = {
      sid: sid('CA'),
      accountSid,
      to,
      from,
      status: 'ringing',
      timeoutSeconds,
      createdAt: new Date().toISOString(),
      url,
      twiml,
      statusCallback: form.get('StatusCallback') ?? undefined,
      sequence: 0,
    };
    if (this.opts.autoNoAnswer !== false) {
      call.timer = setTimeout(() => void this.ignore(call.sid).catch(() => undefined), timeoutSeconds * 1000);
      call.timer.unref();
    }
    this.calls.push(call);
    return { ...this.callJson(call), status: 'queued' };
  }

  private messageJson(m: MessageState) {
    const date = new Date(m.createdAt).toUTCString();
    return {
      account_sid: m.accountSid,
      api_version: '2010-04-01',
      body: m.body,
      date_created: date,
      date_sent: null,
      date_updated: date,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: m.from,
      messaging_service_sid: null,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid: m.sid,
      status: m.status,
      subresource_uris: { media: `${API}/Accounts/${m.accountSid}/Messages/${m.sid}/Media.json` },
      to: m.to,
      uri: `${API}/Accounts/${m.accountSid}/Messages/${m.sid}.json`,
    };
  }

  private callJson(c: CallState) {
    const date = new Date(c.createdAt).toUTCString();
    return {
      account_sid: c.accountSid,
      annotation: null,
      answered_by: null,
      api_version: '2010-04-01',
      caller_name: null,
      date_created: date,
      date_updated: date,
      direction: 'outbound-api',
      duration: null,
      end_time: null,
      forwarded_from: null,
      from: c.from,
      from_formatted: c.from,
      group_sid: null,
      parent_call_sid: null,
      phone_number_sid: null,
      price: null,
      price_unit: 'USD',
      queue_time: '0',
      sid: c.sid,
      start_time: null,
      status: c.status,
      subresource_uris: {},
      to: c.to,
      to_formatted: c.to,
      trunk_sid: null,
      uri: `${API}/Accounts/${c.accountSid}/Calls/${c.sid}.json`,
    };
  }

  /** The control API, for tests and the superadmin SMS Test panel (through the notifications service). */
  private async control(method: string, path: string, raw: string, res: ServerResponse): Promise<void> {
    const input = (() => {
      try {
        return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return Object.fromEntries(new URLSearchParams(raw));
      }
    })();
    if (method === 'GET' && path === '/_fake/messages')
      return this.json(res, 200, { messages: this.messages.map(({ statusCallback: _s, ...m }) => m) });
    if (method === 'GET' && path === '/_fake/calls') return this.json(res, 200, { calls: this.calls.map((c) => this.view(c)) });
    const call = /^\/_fake\/calls\/([A-Za-z0-9]{1,64})(?:\/(accept|ignore))?$/.exec(path);
    if (call && method === 'GET' && !call[2]) {
      const found = this.calls.find((c) => c.sid === call[1]);
      if (!found) throw new HttpError(404, 20404, `No call ${call[1]}`);
      return this.json(res, 200, this.view(found));
    }
    if (call && method === 'POST' && call[2]) {
      const digits = typeof input.digits === 'string' && /^[0-9*#]{1,8}$/.test(input.digits) ? input.digits : '1';
      return this.json(res, 200, call[2] === 'accept' ? await this.accept(call[1], digits) : await this.ignore(call[1]));
    }
    if (method === 'POST' && path === '/_fake/whatsapp-opt-in') {
      const number = String(input.number ?? '');
      if (!E164.test(number)) throw new HttpError(400, 21211, 'number must be E.164');
      this.optIn(number);
      return this.json(res, 200, { optedIn: number });
    }
    if (method === 'POST' && path === '/_fake/fail-next') {
      const count = Number(input.count ?? 1);
      const status = Number(input.status ?? 500);
      const retryAfter = input.retryAfterSeconds === undefined ? undefined : Number(input.retryAfterSeconds);
      if (!Number.isInteger(count) || count < 0 || !Number.isInteger(status) || status < 400 || status > 599) {
        throw new HttpError(400, 0, 'count must be a whole number and status a 4xx/5xx code');
      }
      if (retryAfter !== undefined && (!Number.isInteger(retryAfter) || retryAfter < 0 || retryAfter > 3600)) {
        throw new HttpError(400, 0, 'retryAfterSeconds must be a whole number of seconds, at most 3600');
      }
      this.failNext(count, status, retryAfter);
      return this.json(res, 200, { count, status, ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) });
    }
    if (method === 'POST' && path === '/_fake/inbound-sms') {
      const [from, to, body, url] = [input.from, input.to, input.body, input.url].map((v) => (typeof v === 'string' ? v : ''));
      if (!E164.test(from) || !E164.test(to) || !body || !/^https?:\/\//.test(url))
        throw new HttpError(400, 21211, 'from and to must be E.164, body text, url the webhook');
      return this.json(res, 200, await this.inboundSms(from, to, body, url));
    }
    if (method === 'POST' && path === '/_fake/reset') {
      this.reset();
      return this.json(res, 200, { reset: true });
    }
    throw new HttpError(404, 20404, `Unknown control route ${method} ${path}`);
  }

  private json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }
}

/** Drives a fake provider over its control API (one started by another process or module). */
export class FakeTwilioControl {
  constructor(readonly url: string) {}

  calls(): Promise<{ calls: FakeCall[] }> {
    return this.request('GET', '/_fake/calls');
  }

  messages(): Promise<{ messages: FakeMessage[] }> {
    return this.request('GET', '/_fake/messages');
  }

  answer(callSid: string, action: 'accept' | 'ignore', digits?: string): Promise<FakeCall> {
    return this.request('POST', `/_fake/calls/${encodeURIComponent(callSid)}/${action}`, digits ? { digits } : undefined);
  }

  optIn(number: string): Promise<unknown> {
    return this.request('POST', '/_fake/whatsapp-opt-in', { number });
  }

  failNext(count: number, status = 500, retryAfterSeconds?: number): Promise<unknown> {
    return this.request('POST', '/_fake/fail-next', { count, status, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });
  }

  inboundSms(from: string, to: string, body: string, url: string): Promise<{ reply?: string; status: number }> {
    return this.request('POST', '/_fake/inbound-sms', { from, to, body, url });
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as T & { message?: string };
    if (!res.ok) throw Object.assign(new Error(json.message ?? `fake provider answered ${res.status}`), { status: res.status });
    return json;
  }
}
