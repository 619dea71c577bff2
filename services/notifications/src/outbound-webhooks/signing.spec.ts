import { Webhook } from 'standardwebhooks';
import { newSigningSecret, signedHeaders } from './signing';

describe('webhook signatures (Standard Webhooks)', () => {
  const body = JSON.stringify({ type: 'alarm.opened.v1', timestamp: '2026-12-01T10:00:00.000Z', data: { alarmId: 'a1' } });

  it("verify with the receiver's library, and a changed body, id or secret does not", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signedHeaders('msg_1', new Date(), body, [secret]);
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('a1', 'a2'), headers)).toThrow('No matching signature');
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow('No matching signature');
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow('No matching signature');
  });

  it('while a rotation lasts, carries both signatures, so a receiver holding either secret verifies', () => {
    const [now, before] = [newSigningSecret(), newSigningSecret()];
    const headers = signedHeaders('msg_1', new Date(), body, [now, before]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(now).verify(body, headers)).toBeTruthy();
    expect(new Webhook(before).verify(body, headers)).toBeTruthy();
  });

  it('is refused by a receiver when its timestamp is more than five minutes old (a replayed request)', () => {
    const secret = newSigningSecret();
    const headers = signedHeaders('msg_1', new Date(Date.now() - 6 * 60_000), body, [secret]);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow('timestamp too old');
  });
});
