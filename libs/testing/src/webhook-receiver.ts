import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Received {
  path: string;
  id: string;
  type: string;
  at: number;
  verified: boolean;
  status?: number;
  body: string;
  headers: Record<string, string>;
}

/** Receivers on 127.0.0.1, one per path, each verifying with its endpoint's secrets and answering as told. */
export async function startReceivers() {
  const received: Received[] = [];
  const secrets = new Map<string, string[]>();
  const answers = new Map<string, (n: number) => Answer>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').slice(1);
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const verified = (secrets.get(path) ?? []).some((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const n = received.filter((r) => r.path === path).length;
      const answer = verified ? (answers.get(path)?.(n) ?? { status: 204 }) : { status: 401, body: 'bad signature' };
      const entry: Received = {
        path,
        id: headers['webhook-id'],
        type: (JSON.parse(body) as { type: string }).type,
        at: Date.now(),
        verified,
        body,
        headers,
        ...(answer === 'hang' ? {} : { status: answer.status }),
      };
      received.push(entry);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    secrets,
    answers,
    /** Ends every request left hanging. */
    release() {
      for (const res of hanging) res.writeHead(204).end();
      hanging.clear();
    },
    of: (path: string) => received.filter((r) => r.path === path),
    accepted: (path: string) => received.filter((r) => r.path === path && r.status !== undefined && r.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
