// The organisation's identity provider in tests: panva's oidc-provider, a certified OpenID
// Connect implementation nobody here wrote, on 127.0.0.1. Its own login page takes any password
// for the accounts below (the "login" field names the account). Run as a child process:
//   IDP_CLIENTS='[{"client_id":"lws",...}]' IDP_ACCOUNTS='{"ann":{...claims}}' node idp-server.mjs
// It prints one line, {"issuer": "http://127.0.0.1:<port>"}, once it listens.
//
// POST /__tamper {"mode": "aud" | "exp" | "iss" | "none"} makes the provider misbehave as a broken or
// hostile one would: the ID tokens it issues then name another audience, have expired, or name
// another issuer, each correctly signed with its own key, so only the client's checks stand in
// the way.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair, importJWK, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';

const clients = JSON.parse(process.env.IDP_CLIENTS ?? '[]');
const accounts = JSON.parse(process.env.IDP_ACCOUNTS ?? '{}');
const port = Number(process.env.IDP_PORT ?? 0);

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
const signingKey = await importJWK(jwk, 'RS256');
let tamper = 'none';

const server = createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients,
  jwks: { keys: [jwk] },
  // Entra and Okta put the profile in the ID token; so does this provider.
  conformIdTokenClaims: false,
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'given_name', 'family_name', 'preferred_username', 'groups', 'oid'],
  },
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  pkce: { required: () => true },
  async findAccount(_ctx, id) {
    const claims = accounts[id];
    if (!claims) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
  },
  // Consent is the organisation's business, given once for its own application.
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) return ctx.oidc.provider.Grant.find(grantId);
    const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path !== '/token' || tamper === 'none' || !ctx.body?.id_token) return;
  const claims = decodeJwt(ctx.body.id_token);
  const header = decodeProtectedHeader(ctx.body.id_token);
  const now = Math.floor(Date.now() / 1000);
  if (tamper === 'aud') claims.aud = 'another-application';
  if (tamper === 'exp') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  if (tamper === 'iss') claims.iss = 'https://impostor.example';
  ctx.body = { ...ctx.body, id_token: await new SignJWT(claims).setProtectedHeader(header).sign(signingKey) };
});

const handle = provider.callback();
server.on('request', (req, res) => {
  if (req.method === 'POST' && req.url === '/__tamper') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      tamper = JSON.parse(body).mode;
      res.writeHead(204).end();
    });
    return;
  }
  handle(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
