/** @jest-environment jsdom */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@lws/fe-ui';
import { renderScreen, resetScreen, supportDialogs, writes, type FakeRoutes, type SentRequest } from '@lws/fe-ui/testing';
import { WebhooksCard } from './WebhooksCard';
import type { WebhookDelivery, WebhookEndpoint } from './webhooks-api';

const ADMIN = { id: 7, username: 'ada', name: 'Ada Admin', role: 'admin' };
const EVENT_TYPES = [
  { type: 'alarm.opened.v1', description: 'An alarm opened: a missed check-in or an emergency', duressOnly: false },
  { type: 'emergency.raised.v1', description: 'A worker pressed the emergency button', duressOnly: false },
  { type: 'duress.raised.v1', description: 'A worker entered their duress PIN: a silent emergency', duressOnly: true },
  { type: 'shift.started.v1', description: 'A worker started a shift', duressOnly: false },
];
const TEAMS = [
  { id: 3, name: 'North' },
  { id: 4, name: 'West' },
];
const ARC: WebhookEndpoint = {
  id: '5f0c3e0f-6b7a-4d1e-9a8b-2c3d4e5f6a7b',
  name: 'Northern ARC',
  url: 'https://arc.example/lws',
  eventTypes: ['alarm.opened.v1', 'duress.raised.v1'],
  teamIds: null,
  receivesDuress: true,
  enabled: true,
  disabledAt: null,
  disabledReason: null,
  createdBy: 7,
  createdAt: '2026-11-01T09:00:00Z',
  lastDelivery: {
    deliveryId: 'd0000000-0000-4000-8000-000000000001',
    eventType: 'alarm.opened.v1',
    status: 'succeeded',
    at: '2026-11-20T10:00:00Z',
    httpStatus: 200,
  },
  pending: 2,
};
const HR: WebhookEndpoint = {
  ...ARC,
  id: '6a1d4f10-7c8b-4e2f-8b9c-3d4e5f6a7b8c',
  name: 'HR system',
  url: 'https://hr.example/hooks',
  eventTypes: ['shift.started.v1'],
  teamIds: [3],
  receivesDuress: false,
  enabled: false,
  disabledAt: '2026-11-21T08:00:00Z',
  disabledReason: 'The endpoint answered 410 Gone',
  lastDelivery: null,
  pending: 0,
};
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const FAILED: WebhookDelivery = {
  id: 'e0000000-0000-4000-8000-000000000002',
  messageId: 'msg_2',
  eventType: 'alarm.opened.v1',
  status: 'failed',
  attempts: 2,
  nextAttemptAt: null,
  lastHttpStatus: 503,
  lastLatencyMs: 812,
  lastError: 'HTTP 503',
  createdAt: '2026-11-20T09:00:00Z',
  updatedAt: '2026-11-20T09:05:00Z',
  payload: '{"type":"alarm.opened.v1","timestamp":"2026-11-20T09:00:00.000Z","data":{"alarmId":"a1","userId":17}}',
  attemptLog: [
    {
      attempt: 1,
      at: '2026-11-20T09:00:00Z',
      latencyMs: 640,
      httpStatus: 500,
      responseExcerpt: 'upstream timeout',
      error: null,
      outcome: 'retrying',
    },
    {
      attempt: 2,
      at: '2026-11-20T09:00:05Z',
      latencyMs: 812,
      httpStatus: 503,
      responseExcerpt: '<h1>Service Unavailable</h1>',
      error: null,
      outcome: 'failed',
    },
  ],
};
const SUCCEEDED: WebhookDelivery = {
  ...FAILED,
  id: 'e0000000-0000-4000-8000-000000000001',
  messageId: 'msg_1',
  status: 'succeeded',
  attempts: 1,
  lastHttpStatus: 200,
  lastLatencyMs: 95,
  lastError: null,
  createdAt: '2026-11-20T10:00:00Z',
  attemptLog: [
    { attempt: 1, at: '2026-11-20T10:00:00Z', latencyMs: 95, httpStatus: 200, responseExcerpt: 'ok', error: null, outcome: 'succeeded' },
  ],
};
const OLDER: WebhookDelivery = {
  ...SUCCEEDED,
  id: 'e0000000-0000-4000-8000-000000000000',
  eventType: 'webhook.test.v1',
  createdAt: '2026-11-19T10:00:00Z',
};

beforeAll(supportDialogs);
afterEach(resetScreen);

function renderCard(routes: FakeRoutes = {}) {
  return renderScreen(<WebhooksCard />, {
    signedInAs: ADMIN,
    routes: {
      'GET /api/webhooks/endpoints': { body: [ARC, HR] },
      'GET /api/webhooks/event-types': { body: EVENT_TYPES },
      'GET /api/teams': { body: TEAMS },
      ...routes,
    },
  });
}

const rows = async () => (await screen.findAllByTestId('webhook-endpoint')).map((row) => row.textContent);
const row = (name: string) => screen.getAllByTestId('webhook-endpoint').find((r) => within(r).queryByText(name))!;
const add = () => screen.getByRole('button', { name: 'Add endpoint' });
const eventBox = (type: string) => screen.queryByRole('checkbox', { name: new RegExp(`${type.replace(/\./g, '\\.')}$`) });

async function fillIn(user: ReturnType<typeof renderCard>['user'], name = 'Southern ARC', url = 'https://south-arc.example/lws') {
  await user.type(screen.getByLabelText('Endpoint name'), name);
  await user.type(screen.getByLabelText('Endpoint URL'), url);
  await user.click(await screen.findByRole('checkbox', { name: /alarm\.opened\.v1$/ }));
}

describe('WebhooksCard', () => {
  it('lists the endpoints with their events, teams, status, last delivery and queue, and why one was disabled', async () => {
    renderCard();
    expect(await rows()).toEqual([
      `Northern ARC Duresshttps://arc.example/lws2Every teamEnabledSucceeded HTTP 200, ${formatDateTime(ARC.lastDelivery!.at)}2DeliveriesSend testDisableRotate secretDelete`,
      'HR systemhttps://hr.example/hooks1NorthDisabled: the endpoint answered 410 GoneNone yet0DeliveriesSend testEnableRotate secretDelete',
    ]);
    // A disabled endpoint is sent nothing, a test neither.
    expect((within(row('HR system')).getByRole('button', { name: 'Send a test event to HR system' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('adds an endpoint and shows its signing secret once, never in the list', async () => {
    let listed = [ARC];
    const { user, sent } = renderCard({
      'GET /api/webhooks/endpoints': () => ({ body: listed }),
      'POST /api/webhooks/endpoints': ({ body }) => {
        const request = body as { name: string; url: string; eventTypes: string[] };
        const endpoint = {
          ...HR,
          ...request,
          id: '7b2e5a21-8d9c-4f30-9cad-4e5f6a7b8c9d',
          enabled: true,
          disabledAt: null,
          disabledReason: null,
          teamIds: null,
        };
        listed = [...listed, endpoint];
        return { status: 201, body: { endpoint, secret: SECRET } };
      },
    });
    await rows();
    await fillIn(user, ' Southern ARC ');
    await user.click(screen.getByRole('checkbox', { name: /emergency\.raised\.v1$/ }));
    await user.click(add());

    const shown = await screen.findByTestId('webhook-secret');
    expect(within(shown).getByText('Copy this signing secret now: it will not be shown again.')).toBeTruthy();
    expect(within(shown).getByRole('status', { name: 'Signing secret of Southern ARC' }).textContent).toBe(SECRET);
    expect(screen.getByTestId('webhook-verify').textContent).toContain('Standard Webhooks');
    expect(screen.getByRole('link', { name: 'How to verify a webhook' }).getAttribute('href')).toBe('/api/docs');
    expect(writes(sent)).toEqual([
      {
        method: 'POST',
        path: '/api/webhooks/endpoints',
        body: {
          name: 'Southern ARC',
          url: 'https://south-arc.example/lws',
          eventTypes: ['alarm.opened.v1', 'emergency.raised.v1'],
          receivesDuress: false,
        },
      },
    ]);
    // The form is ready for the next endpoint.
    expect((screen.getByLabelText('Endpoint name') as HTMLInputElement).value).toBe('');
    expect(screen.getAllByRole('checkbox').filter((c) => (c as HTMLInputElement).checked)).toEqual([]);

    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect(row('Southern ARC').textContent).toContain('https://south-arc.example/lws');
    expect(screen.getAllByTestId('webhook-endpoint').some((r) => r.textContent?.includes(SECRET))).toBe(false);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('offers the duress-only event only once "Receive duress alarms" is ticked, with a warning that duress is silent', async () => {
    const { user, sent } = renderCard({
      'POST /api/webhooks/endpoints': () => ({ status: 201, body: { endpoint: ARC, secret: SECRET } }),
    });
    await rows();
    expect(await screen.findByRole('checkbox', { name: /alarm\.opened\.v1$/ })).toBeTruthy();
    expect(eventBox('duress.raised.v1')).toBeNull();
    expect(screen.queryByTestId('webhook-duress-warning')).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Receive duress alarms' }));
    expect(screen.getByTestId('webhook-duress-warning').textContent).toContain('only to an alarm receiving centre');
    await user.click(eventBox('duress.raised.v1')!);

    // Unticked again, the duress event is hidden and not sent either.
    await user.click(screen.getByRole('checkbox', { name: 'Receive duress alarms' }));
    expect(eventBox('duress.raised.v1')).toBeNull();
    await fillIn(user, 'Rota tool');
    await user.click(add());
    await screen.findByTestId('webhook-secret');
    expect(writes(sent).map((r) => r.body)).toEqual([
      { name: 'Rota tool', url: 'https://south-arc.example/lws', eventTypes: ['alarm.opened.v1'], receivesDuress: false },
    ]);

    await user.click(screen.getByRole('checkbox', { name: 'Receive duress alarms' }));
    await user.click(eventBox('duress.raised.v1')!);
    await fillIn(user, 'Northern ARC', 'https://arc.example/lws');
    await user.click(add());
    await waitFor(() => expect(writes(sent)).toHaveLength(2));
    expect(writes(sent)[1].body).toEqual({
      name: 'Northern ARC',
      url: 'https://arc.example/lws',
      eventTypes: ['duress.raised.v1', 'alarm.opened.v1'],
      receivesDuress: true,
    });
  });

  it('checks the form with the gateway schema, and sends the chosen teams', async () => {
    const { user, sent } = renderCard({
      'POST /api/webhooks/endpoints': () => ({ status: 201, body: { endpoint: HR, secret: SECRET } }),
    });
    await rows();
    await user.click(add());
    expect(screen.getByTestId('webhook-name-error').textContent).toBe('Name the endpoint after the system that receives it');
    expect(screen.getByTestId('webhook-url-error').textContent).toBe('Enter the full address of the endpoint, starting https://');
    expect(screen.getByTestId('webhook-eventTypes-error').textContent).toBe('Choose at least one event');

    await fillIn(user, 'HR', 'hr.example/hooks');
    await user.click(screen.getByRole('radio', { name: 'Only the teams I choose' }));
    await user.click(add());
    expect(screen.getByTestId('webhook-url-error')).toBeTruthy();
    expect(screen.getByTestId('webhook-teamIds-error').textContent).toBe('Choose at least one team, or every team');
    expect(writes(sent)).toEqual([]);

    await user.clear(screen.getByLabelText('Endpoint URL'));
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hr.example/hooks');
    await user.click(within(screen.getByRole('group', { name: 'Teams it receives events of' })).getByRole('checkbox', { name: 'North' }));
    expect(screen.queryByTestId('webhook-teamIds-error')).toBeNull();
    await user.click(add());
    await screen.findByTestId('webhook-secret');
    expect(writes(sent).map((r) => r.body)).toEqual([
      { name: 'HR', url: 'https://hr.example/hooks', eventTypes: ['alarm.opened.v1'], teamIds: [3], receivesDuress: false },
    ]);
  });

  it("shows the server's refusal of the address on the URL field", async () => {
    const { user, sent } = renderCard({
      'POST /api/webhooks/endpoints': { status: 400, body: { message: 'Only public addresses can receive webhooks', field: 'url' } },
    });
    await rows();
    await fillIn(user, 'Local', 'https://10.0.0.5/hooks');
    await user.click(add());
    expect((await screen.findByTestId('webhook-url-error')).textContent).toBe('Only public addresses can receive webhooks');
    const url = screen.getByLabelText('Endpoint URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(url.getAttribute('aria-describedby')).toContain(screen.getByTestId('webhook-url-error').id);
    expect(document.activeElement).toBe(url);
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
    expect(writes(sent)).toHaveLength(1);
  });

  it('disables an endpoint and enables it again', async () => {
    let enabled = true;
    const { user, sent } = renderCard({
      'GET /api/webhooks/endpoints': () => ({ body: [enabled ? ARC : { ...ARC, enabled, disabledReason: 'Disabled by user 7' }] }),
      [`PATCH /api/webhooks/endpoints/${ARC.id}`]: ({ body }) => {
        enabled = (body as { enabled: boolean }).enabled;
        return { body: { ...ARC, enabled, disabledReason: enabled ? null : 'Disabled by user 7' } };
      },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Disable Northern ARC' }));
    expect(await screen.findByText('Nothing more is sent to Northern ARC; what was waiting for it is cancelled.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('webhook-endpoint-status').textContent).toBe('Disabled: turned off here'));
    expect((screen.getByRole('button', { name: 'Send a test event to Northern ARC' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Enable Northern ARC' }));
    expect(await screen.findByText('Northern ARC receives new events from now on.')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('webhook-endpoint-status').textContent).toBe('Enabled'));
    expect(writes(sent)).toEqual([
      { method: 'PATCH', path: `/api/webhooks/endpoints/${ARC.id}`, body: { enabled: false } },
      { method: 'PATCH', path: `/api/webhooks/endpoints/${ARC.id}`, body: { enabled: true } },
    ]);
  });

  it('sends a test event and opens the delivery log', async () => {
    const { user, sent } = renderCard({
      [`POST /api/webhooks/endpoints/${ARC.id}/test`]: { status: 202, body: { messageId: 'msg_9', deliveryId: OLDER.id } },
      [`GET /api/webhooks/endpoints/${ARC.id}/deliveries`]: { body: [OLDER] },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Send a test event to Northern ARC' }));
    expect(await screen.findByText('Its delivery to Northern ARC shows in the delivery log.')).toBeTruthy();
    const log = await screen.findByTestId('webhook-delivery-log');
    expect((await within(log).findByTestId('webhook-delivery')).textContent).toContain('webhook.test.v1');
    expect(writes(sent)).toEqual([{ method: 'POST', path: `/api/webhooks/endpoints/${ARC.id}/test`, body: undefined }]);
  });

  it("shows an endpoint's deliveries newest first, each attempt's answer and the payload, and replays a failed one", async () => {
    const reads: SentRequest[] = [];
    const { user, sent } = renderCard({
      [`GET /api/webhooks/endpoints/${ARC.id}/deliveries`]: (request) => {
        reads.push(request);
        const query = new URLSearchParams(request.query);
        if (query.get('status') === 'failed') return { body: [FAILED] };
        if (query.get('cursor') === 'page-2') return { body: [OLDER] };
        return { body: [SUCCEEDED, FAILED], headers: { 'X-Next-Cursor': 'page-2' } };
      },
      [`POST /api/webhooks/deliveries/${FAILED.id}/replay`]: { body: { deliveryIds: [FAILED.id] } },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Show the delivery log of Northern ARC' }));
    const log = within(await screen.findByTestId('webhook-delivery-log'));
    const deliveries = async () => (await log.findAllByTestId('webhook-delivery')).map((d) => [d.dataset.status, d.textContent]);
    expect(await deliveries()).toEqual([
      ['succeeded', `alarm.opened.v1Succeeded1–HTTP 200, 95 ms${formatDateTime(SUCCEEDED.createdAt)}Details`],
      ['failed', `alarm.opened.v1Failed2–HTTP 503, 812 ms${formatDateTime(FAILED.createdAt)}DetailsReplay`],
    ]);
    // Only a delivery that has stopped trying can be sent again.
    expect(log.getAllByRole('button', { name: /again$/ })).toHaveLength(1);

    await user.click(log.getAllByRole('button', { name: 'Show the details of alarm.opened.v1' })[1]);
    const details = within(log.getByTestId('webhook-delivery-details'));
    const excerpts = details.getAllByTestId('webhook-attempt-excerpt');
    expect(excerpts.map((e) => [e.tagName, e.textContent])).toEqual([
      ['PRE', 'upstream timeout'],
      ['PRE', '<h1>Service Unavailable</h1>'],
    ]);
    expect(details.getAllByTestId('webhook-attempt').map((a) => a.textContent)).toEqual([
      `1${formatDateTime('2026-11-20T09:00:00Z')}Failed, will retryHTTP 500640 msupstream timeout`,
      `2${formatDateTime('2026-11-20T09:00:05Z')}Failed, no more retriesHTTP 503812 ms<h1>Service Unavailable</h1>`,
    ]);
    expect(details.getByTestId('webhook-delivery-payload').textContent).toBe(JSON.stringify(JSON.parse(FAILED.payload), null, 2));

    await user.click(log.getByRole('button', { name: 'Send alarm.opened.v1 again' }));
    expect(await screen.findByText('It is tried again now, on a new run of the retry schedule.')).toBeTruthy();
    expect(writes(sent)).toEqual([{ method: 'POST', path: `/api/webhooks/deliveries/${FAILED.id}/replay`, body: undefined }]);

    await user.click(log.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await deliveries()).toHaveLength(3));
    expect((await deliveries())[2][1]).toContain('webhook.test.v1');
    expect(log.queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.selectOptions(log.getByLabelText('Status'), 'Failed');
    await waitFor(async () => expect((await deliveries()).map(([status]) => status)).toEqual(['failed']));
    expect(reads.map((r) => r.query)).toContain('limit=20&status=failed');
    expect(reads.map((r) => r.query)).toContain('limit=20&cursor=page-2');
  });

  it('rotates a secret only once confirmed, showing the new one once', async () => {
    const NEW_SECRET = 'whsec_Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Jh0GfEd';
    const { user, sent } = renderCard({
      [`POST /api/webhooks/endpoints/${ARC.id}/rotate-secret`]: { body: { endpoint: ARC, secret: NEW_SECRET } },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Rotate the secret of Northern ARC' }));
    const dialog = screen.getByTestId('webhook-rotate-dialog');
    expect(within(dialog).getByText('Rotate the secret of Northern ARC?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(writes(sent)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rotate the secret of Northern ARC' }));
    await user.click(screen.getByTestId('webhook-rotate-dialog-confirm'));
    const shown = await screen.findByTestId('webhook-secret');
    expect(within(shown).getByText(/The old one keeps signing for 24 hours\.$/)).toBeTruthy();
    expect(within(shown).getByRole('status', { name: 'Signing secret of Northern ARC' }).textContent).toBe(NEW_SECRET);
    expect(writes(sent)).toEqual([{ method: 'POST', path: `/api/webhooks/endpoints/${ARC.id}/rotate-secret`, body: undefined }]);
  });

  it('deletes an endpoint only once confirmed', async () => {
    let deleted = false;
    const { user, sent } = renderCard({
      'GET /api/webhooks/endpoints': () => ({ body: deleted ? [HR] : [ARC, HR] }),
      [`DELETE /api/webhooks/endpoints/${ARC.id}`]: () => {
        deleted = true;
        return { body: { ok: true } };
      },
    });
    await rows();
    await user.click(screen.getByRole('button', { name: 'Delete Northern ARC' }));
    await user.click(screen.getByTestId('webhook-delete-dialog-confirm'));
    expect(await screen.findByText('Nothing more is sent to Northern ARC.')).toBeTruthy();
    await waitFor(async () => expect(await rows()).toHaveLength(1));
    expect(writes(sent)).toEqual([{ method: 'DELETE', path: `/api/webhooks/endpoints/${ARC.id}`, body: undefined }]);
  });
});
