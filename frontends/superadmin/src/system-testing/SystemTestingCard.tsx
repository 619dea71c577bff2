import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  FieldError,
  Input,
  Label,
  Skeleton,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  api,
  failureField,
  failureMessage,
  formatDateTime,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { PHONE_REQUIRED, testCallFormSchema, type TestCallForm } from '@lws/schemas';
import type { Account } from '@lws/fe-monitor/accounts';
import { SimulationSelect } from '../test-tools/SimulationSelect';
import { WorkerSelect } from '../test-tools/WorkerSelect';
import {
  DEFAULT_SIMULATION_MINUTES,
  TEST_LOCATION,
  nextCheckInOf,
  resetCheckInTimer,
  simulateCheckInDue,
  simulateSpecificTime,
  simulationLabel,
  useWorkerAccounts,
} from '../test-tools/test-api';

const OPT_IN_FAILED = msg('Failed to send - Check opt-in status');

interface WhatsAppResult {
  whatsappNumber: string;
  userPhone: string;
  fiveMinutes: string;
  twoMinutes: string;
  setupSteps: string[];
  error: string | null;
}

function parseWhatsApp(body: unknown): WhatsAppResult {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const results = v.results && typeof v.results === 'object' ? (v.results as Record<string, unknown>) : {};
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    whatsappNumber: text(v.whatsappNumber),
    userPhone: text(v.userPhone),
    fiveMinutes: text(results.fiveMinutes),
    twoMinutes: text(results.twoMinutes),
    setupSteps: Array.isArray(v.setupSteps) ? v.setupSteps.filter((s): s is string => typeof s === 'string') : [],
    error: typeof v.error === 'string' && v.error ? v.error : null,
  };
}

function CheckInSimulation({ workers, defaultMinutes }: { workers: Account[]; defaultMinutes: number }) {
  const { toast } = useToast();
  const t = useT();
  const [userId, setUserId] = useState<number | null>(null);
  const [minutes, setMinutes] = useState(defaultMinutes);
  const [busy, setBusy] = useState<string | null>(null);
  const [last, setLast] = useState<string | null>(null);

  const run = async (key: string, action: () => Promise<unknown>, okTitle: string, failedTitle: string) => {
    setBusy(key);
    try {
      const next = nextCheckInOf(await action());
      setLast(next);
      toast({
        title: okTitle,
        message: next ? t('Next check-in due {{time}}.', { time: formatDateTime(next) }) : t('The check-in timer was updated.'),
      });
    } catch (e) {
      console.error(failedTitle, e);
      toast({ title: failedTitle, message: t(failureMessage(e, msg('Please try again.'))), type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="lws-form" data-testid="check-in-simulation">
      <p className="lws-muted">
        {t("Moves an on-shift worker's next check-in, so reminders and escalation can be watched without waiting an hour.")}
      </p>
      <WorkerSelect workers={workers} value={userId} onChange={setUserId} data-testid="simulation-user" />
      <SimulationSelect value={minutes} onChange={setMinutes} data-testid="simulation-minutes" />
      <div className="lws-actions">
        <Button
          busy={busy === 'simulate'}
          disabled={busy !== null || userId === null}
          onClick={() =>
            userId !== null &&
            void run('simulate', () => simulateSpecificTime(userId, minutes), t('Simulation started'), t('Simulation failed'))
          }
          data-testid="simulation-start"
        >
          {t('Simulate')}
        </Button>
        <Button
          variant="outline"
          busy={busy === 'due'}
          disabled={busy !== null || userId === null}
          onClick={() =>
            userId !== null && void run('due', () => simulateCheckInDue(userId), t('Simulation started'), t('Simulation failed'))
          }
          data-testid="simulation-due-now"
        >
          {t('Make due now')}
        </Button>
        <Button
          variant="outline"
          busy={busy === 'reset'}
          disabled={busy !== null || userId === null}
          onClick={() => userId !== null && void run('reset', () => resetCheckInTimer(userId), t('Simulation reset'), t('Reset failed'))}
          data-testid="simulation-reset"
        >
          {t('Reset')}
        </Button>
      </div>
      {last ? (
        <p className="lws-muted" data-testid="simulation-next">
          {t('Next check-in: {{time}}', { time: formatDateTime(last) })}
        </p>
      ) : null}
    </div>
  );
}

function EmergencyTests() {
  const { toast } = useToast();
  const t = useT();
  const phoneId = useId();
  const phoneErrorId = useId();
  const nameId = useId();
  const locationId = useId();
  // The gateway's own schema checks the form (a UK number may be typed as dialled at home).
  const form = useForm<TestCallForm, unknown, z.output<typeof testCallFormSchema>>({
    resolver: zodResolver(testCallFormSchema),
    defaultValues: { phoneNumber: '', workerName: t('Test Worker'), location: t(TEST_LOCATION) },
  });
  const { errors, isSubmitting: busy } = form.formState;

  const submit = form.handleSubmit(async ({ phoneNumber, workerName, location }) => {
    try {
      const body = (await api.post('/api/emergency-call', {
        phoneNumber,
        workerName: workerName || t('Test Worker'),
        location: location || t(TEST_LOCATION),
      })) as { callSid?: unknown; status?: unknown } | undefined;
      const sid = typeof body?.callSid === 'string' ? body.callSid : 'unknown';
      toast({
        title: t('Test call initiated'),
        message: t('Calling {{phone}} (call {{sid}}, {{status}}).', {
          phone: phoneNumber,
          sid,
          status: typeof body?.status === 'string' ? body.status : 'queued',
        }),
      });
    } catch (e) {
      console.error('The test call failed', e);
      if (e instanceof ApiError && e.status === 400 && failureField(e) === 'phoneNumber')
        form.setError('phoneNumber', { message: failureMessage(e, PHONE_REQUIRED) });
      toast({ title: t('Call failed'), message: t(failureMessage(e, msg('Failed to place call. Please try again.'))), type: 'error' });
    }
  });

  return (
    <form
      className="lws-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label={t('Test voice call')}
      data-testid="emergency-tests"
    >
      <p className="lws-muted">
        {t('Places a real voice call with the emergency call flow: the callee hears the alert and presses 1 to accept.')}
      </p>
      <div className="lws-field">
        <Label htmlFor={phoneId}>{t('Phone number')}</Label>
        <Input
          {...form.register('phoneNumber')}
          id={phoneId}
          type="tel"
          placeholder="+447700900123"
          invalid={Boolean(errors.phoneNumber)}
          aria-describedby={errors.phoneNumber ? phoneErrorId : undefined}
          data-testid="test-call-phone"
        />
        <FieldError id={phoneErrorId} testId="test-call-phone-error">
          {errors.phoneNumber?.message && t(errors.phoneNumber.message)}
        </FieldError>
      </div>
      <div className="lws-field">
        <Label htmlFor={nameId}>{t('Worker name')}</Label>
        <Input {...form.register('workerName')} id={nameId} maxLength={100} />
      </div>
      <div className="lws-field">
        <Label htmlFor={locationId}>{t('Location')}</Label>
        <Input {...form.register('location')} id={locationId} maxLength={100} />
      </div>
      <div className="lws-actions">
        <Button type="submit" variant="destructive" busy={busy} data-testid="test-call-submit">
          {t('Place Test Call')}
        </Button>
      </div>
    </form>
  );
}

function SystemTools({ workers }: { workers: Account[] }) {
  const { toast } = useToast();
  const t = useT();
  const [busy, setBusy] = useState<string | null>(null);
  const [processed, setProcessed] = useState<{ processed: number; results: { userId: number; status: string }[] } | null>(null);
  const [userId, setUserId] = useState<number | null>(null);
  const [whatsApp, setWhatsApp] = useState<WhatsAppResult | null>(null);

  const processMissed = async () => {
    setBusy('missed');
    try {
      const body = (await api.post('/api/process-missed-check-ins')) as { processed?: unknown; results?: unknown } | undefined;
      const results = Array.isArray(body?.results)
        ? body.results.filter(
            (r): r is { userId: number; status: string } => Boolean(r) && typeof r.userId === 'number' && typeof r.status === 'string',
          )
        : [];
      const count = typeof body?.processed === 'number' ? body.processed : results.length;
      setProcessed({ processed: count, results });
      toast({
        title: t('Test completed'),
        message:
          count === 1
            ? t('Processed {{number}} missed check-in.', { number: count })
            : t('Processed {{number}} missed check-ins.', { number: count }),
      });
    } catch (e) {
      console.error('Processing missed check-ins failed', e);
      toast({ title: t('Test failed'), message: t(failureMessage(e, msg('Processing missed check-ins failed.'))), type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const testWhatsApp = async () => {
    if (userId === null) return;
    setBusy('whatsapp');
    try {
      const result = parseWhatsApp(await api.post(`/api/test-whatsapp-reminders/${userId}`));
      setWhatsApp(result);
      const failed = !result.fiveMinutes || !result.twoMinutes;
      if (failed) toast({ title: t('Test failed'), message: t(result.error ?? OPT_IN_FAILED), type: 'error' });
      else
        toast({ title: t('Test completed'), message: t('Both WhatsApp reminders were sent to {{phone}}.', { phone: result.userPhone }) });
    } catch (e) {
      console.error('The WhatsApp reminder test failed', e);
      toast({ title: t('Test failed'), message: t(failureMessage(e, msg('The WhatsApp reminder test failed.'))), type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="lws-form" data-testid="system-tools">
      <section className="lws-form" aria-labelledby="missed-title">
        <h3 id="missed-title" className="lws-section-title">
          {t('Missed check-ins')}
        </h3>
        <p className="lws-muted">
          {t('The server detects missed check-ins by itself within seconds; this runs the check now and reports what it found.')}
        </p>
        <div className="lws-actions">
          <Button busy={busy === 'missed'} disabled={busy !== null} onClick={() => void processMissed()} data-testid="process-missed">
            {t('Process Missed Check-ins')}
          </Button>
        </div>
        {processed ? (
          <div data-testid="process-missed-result">
            <p>{t('Processed: {{number}}', { number: processed.processed })}</p>
            {processed.results.length > 0 ? (
              <ul className="lws-list">
                {processed.results.map((r) => (
                  <li key={r.userId} className="lws-list__item">
                    <span>{t('User {{id}}', { id: r.userId })}</span>
                    <span>{r.status}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </section>
      <section className="lws-form" aria-labelledby="whatsapp-title">
        <h3 id="whatsapp-title" className="lws-section-title">
          {t('WhatsApp reminder test')}
        </h3>
        <WorkerSelect workers={workers} value={userId} onChange={setUserId} data-testid="whatsapp-user" />
        <div className="lws-actions">
          <Button
            variant="outline"
            busy={busy === 'whatsapp'}
            disabled={busy !== null || userId === null}
            onClick={() => void testWhatsApp()}
            data-testid="whatsapp-test"
          >
            {t('Send WhatsApp Test')}
          </Button>
        </div>
        {whatsApp ? (
          <div data-testid="whatsapp-result">
            <dl className="lws-info-list">
              <dt>{t('From')}</dt>
              <dd>{whatsApp.whatsappNumber || t('Unknown')}</dd>
              <dt>{t('To')}</dt>
              <dd>{whatsApp.userPhone || t('Unknown')}</dd>
              <dt>{t('5-minute reminder')}</dt>
              <dd data-testid="whatsapp-five">
                {whatsApp.fiveMinutes ? t('Sent ({{sid}})', { sid: whatsApp.fiveMinutes }) : t(OPT_IN_FAILED)}
              </dd>
              <dt>{t('2-minute reminder')}</dt>
              <dd data-testid="whatsapp-two">
                {whatsApp.twoMinutes ? t('Sent ({{sid}})', { sid: whatsApp.twoMinutes }) : t(OPT_IN_FAILED)}
              </dd>
            </dl>
            {whatsApp.setupSteps.length > 0 ? (
              <Alert variant="warning" title={t('WhatsApp opt-in required')} data-testid="whatsapp-setup-steps">
                <ol>
                  {whatsApp.setupSteps.map((step, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the provider's numbered steps, shown in their order.
                    <li key={i}>{step}</li>
                  ))}
                </ol>
              </Alert>
            ) : null}
          </div>
        ) : null}
      </section>
    </div>
  );
}

function SimulationSettings({ minutes, onChange }: { minutes: number; onChange(minutes: number): void }) {
  const t = useT();
  return (
    <div className="lws-form" data-testid="simulation-settings">
      <p className="lws-muted">
        {t(
          "The time the Check-in Simulation tab starts from. Simulations move a real worker's deadline: reminders, alerts and escalation follow it.",
        )}
      </p>
      <SimulationSelect value={minutes} onChange={onChange} data-testid="simulation-default-minutes" />
      <dl className="lws-info-list">
        <dt>{t('Default')}</dt>
        <dd>{simulationLabel(DEFAULT_SIMULATION_MINUTES, t)}</dd>
        <dt>{t('Test location')}</dt>
        <dd>{t(TEST_LOCATION)}</dd>
      </dl>
    </div>
  );
}

/** System Testing Tools (spec section 2): simulations, a test voice call and the server's own checks. */
export function SystemTestingCard() {
  const t = useT();
  const { load } = useWorkerAccounts();
  const [defaultMinutes, setDefaultMinutes] = useState<number>(DEFAULT_SIMULATION_MINUTES);
  const workers = load.state === 'ready' ? load.workers : [];

  return (
    <Card data-testid="system-testing">
      <CardHeader>
        <CardTitle>{t('System Testing Tools')}</CardTitle>
        <CardDescription>{t('Every test acts on real accounts and really sends messages and calls.')}</CardDescription>
      </CardHeader>
      <CardContent>
        {load.state === 'loading' ? (
          <Skeleton height="4rem" />
        ) : (
          <>
            {load.state === 'error' ? <Alert variant="error">{t('Failed to load test user data')}</Alert> : null}
            <Tabs defaultValue="simulation">
              <TabsList aria-label={t('System testing tools')}>
                <TabsTrigger value="simulation">{t('Check-in Simulation')}</TabsTrigger>
                <TabsTrigger value="emergency">{t('Emergency Tests')}</TabsTrigger>
                <TabsTrigger value="tools">{t('System Tools')}</TabsTrigger>
                <TabsTrigger value="settings">{t('Simulation Settings')}</TabsTrigger>
              </TabsList>
              <TabsContent value="simulation">
                <CheckInSimulation key={defaultMinutes} workers={workers} defaultMinutes={defaultMinutes} />
              </TabsContent>
              <TabsContent value="emergency">
                <EmergencyTests />
              </TabsContent>
              <TabsContent value="tools">
                <SystemTools workers={workers} />
              </TabsContent>
              <TabsContent value="settings">
                <SimulationSettings minutes={defaultMinutes} onChange={setDefaultMinutes} />
              </TabsContent>
            </Tabs>
          </>
        )}
      </CardContent>
    </Card>
  );
}
