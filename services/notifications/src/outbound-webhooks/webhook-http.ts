import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { isIP } from 'node:net';
import { VERSION } from '@lws/platform';
import { addressAllowed, guardedLookupFor, isLoopbackAddress, type AddressPolicy } from '../outbound/public-address';

/** What an endpoint's answer keeps in the delivery log: its first kilobyte, as text. */
export const EXCERPT_BYTES = 1024;

export const USER_AGENT = `LWS-Webhooks/${VERSION} (lone-worker safety; Standard Webhooks)`;

/** The error code a refused address carries, from the connection's lookup or the literal check. */
const FORBIDDEN_CODE = 'EWEBHOOKADDRESS';

/** One attempt's answer. `status` is absent when none came (a timeout, a network error, a refused address). */
export interface PostResult {
  status?: number;
  latencyMs: number;
  excerpt?: string;
  retryAfter?: string;
  error?: string;
  /** The address is one the server may never reach: trying again cannot help. */
  forbidden?: boolean;
}

/**
 * Why a URL cannot be a webhook endpoint under this policy, or undefined when it can: https (http
 * only to a loopback address, where loopback is allowed), no credentials. Addresses are checked
 * when the endpoint is stored and again on every connection.
 */
export function urlProblem(raw: string, policy: AddressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be a URL';
  }
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol === 'http:' && policy.allowLoopback && isIP(host) && isLoopbackAddress(host)) return undefined;
  return 'url must be an https:// URL';
}

/**
 * POSTs signed webhooks: to public addresses only (each connection's address is checked as it is
 * made, an IP literal before), following no redirect, within `timeoutMs` for the whole exchange,
 * reading no more than the first kilobyte of the answer.
 */
export class WebhookHttp {
  private readonly https: HttpsAgent;
  private readonly http: HttpAgent;

  constructor(private readonly options: { timeoutMs: number; policy: AddressPolicy; maxSockets: number }) {
    const lookup = guardedLookupFor('webhook endpoint', FORBIDDEN_CODE, options.policy) as never;
    this.https = new HttpsAgent({ lookup, keepAlive: true, maxSockets: options.maxSockets });
    this.http = new HttpAgent({ lookup, keepAlive: true, maxSockets: options.maxSockets });
  }

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const problem = urlProblem(rawUrl, this.options.policy);
    if (problem) return { latencyMs: 0, error: `refused: ${problem}`, forbidden: true };
    const url = new URL(rawUrl);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Node connects to an IP literal without a lookup, so the agent's check never sees it.
    if (isIP(host) && !addressAllowed(host, this.options.policy)) {
      return { latencyMs: 0, error: `refused: ${host} is not a public address`, forbidden: true };
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<PostResult>((resolve) => {
      let settled = false;
      let answer: { status?: number; retryAfter?: string; body: Buffer[]; size: number } | undefined;
      const finish = (result: Omit<PostResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      // The answer as far as it came: its status counts even when its body is cut off.
      const answered = () => finish({ status: answer?.status, retryAfter: answer?.retryAfter, excerpt: excerptOf(answer?.body ?? []) });
      const req = send(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? this.https : this.http,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': USER_AGENT,
          },
        },
        (res) => {
          const received = { status: res.statusCode, retryAfter: header(res, 'retry-after'), body: [] as Buffer[], size: 0 };
          answer = received;
          res.on('data', (chunk: Buffer) => {
            received.body.push(chunk);
            received.size += chunk.length;
            // A longer answer is cut off here, so a receiver that streams forever cannot hold an attempt open.
            if (received.size >= EXCERPT_BYTES) {
              answered();
              res.destroy();
            }
          });
          res.on('end', answered);
          res.on('close', answered);
          res.on('error', answered);
        },
      );
      const timer = setTimeout(() => {
        if (answer) answered();
        else finish({ error: `timed out after ${this.options.timeoutMs} ms` });
        req.destroy();
      }, this.options.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (answer) return answered();
        const forbidden = err.code === FORBIDDEN_CODE;
        finish({ error: forbidden ? `refused: ${err.message}` : `${err.code ? `${err.code}: ` : ''}${err.message}`, forbidden });
      });
      req.end(body);
    });
  }

  close(): void {
    this.https.destroy();
    this.http.destroy();
  }
}

function header(res: IncomingMessage, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The first EXCERPT_BYTES of an answer, as text; undefined when it had none. */
function excerptOf(chunks: Buffer[]): string | undefined {
  const text = Buffer.concat(chunks)
    .subarray(0, EXCERPT_BYTES)
    .toString('utf8')
    // PostgreSQL text holds no NUL.
    .replaceAll('\u0000', '');
  return text.length > 0 ? text : undefined;
}
