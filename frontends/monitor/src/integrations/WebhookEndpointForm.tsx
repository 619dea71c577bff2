import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useController, useForm, type Resolver, type ResolverOptions } from 'react-hook-form';
import {
  Alert,
  Button,
  Checkbox,
  FieldError,
  Input,
  Label,
  Skeleton,
  failureField,
  failureMessage,
  msg,
  useAuth,
  useT,
  useToast,
  type Translate,
} from '@lws/fe-ui';
import { createWebhookEndpointSchema, type CreateWebhookEndpointRequest } from '@lws/schemas';
import { fetchTeamNames } from '../accounts/accounts-api';
import { createEndpoint, fetchEventTypes, WEBHOOK_EVENT_TYPES_KEY, type WebhookEndpoint, type WebhookEventType } from './webhooks-api';

/** The event types as the notifications service describes them (its catalogue), marked to translate. */
const EVENT_TEXT: Record<string, string> = {
  'alarm.opened.v1': msg('An alarm opened: a missed check-in or an emergency'),
  'alarm.escalated.v1': msg("One step of an alarm's escalation policy ran"),
  'alarm.acknowledged.v1': msg('A monitor took ownership of an alarm'),
  'alarm.resolved.v1': msg('An alarm was closed, with its verdict (genuine or false alarm)'),
  'emergency.raised.v1': msg('A worker pressed the emergency button'),
  'duress.raised.v1': msg('A worker entered their duress PIN: a silent emergency'),
  'checkin.missed.v1': msg("A worker's check-in deadline passed: the missed check-in alarm opened"),
  'shift.started.v1': msg('A worker started a shift'),
  'shift.ended.v1': msg('A shift ended'),
  'worker.safe.v1': msg('A worker said they are safe on their emergency screen'),
};

/** A type this screen does not know yet still shows, in the server's English. */
export const eventTypeText = (e: WebhookEventType, t: Translate) => (EVENT_TEXT[e.type] ? t(EVENT_TEXT[e.type]) : e.description);

interface WebhookForm {
  name: string;
  url: string;
  eventTypes: string[];
  receivesDuress: boolean;
  teams: 'all' | 'chosen';
  teamIds: number[];
}
type WebhookField = keyof WebhookForm;
const EMPTY: WebhookForm = { name: '', url: '', eventTypes: [], receivesDuress: false, teams: 'all', teamIds: [] };
const FIELDS = Object.keys(EMPTY) as WebhookField[];
const NAME_MAX = 100;
const URL_MAX = 2000;

interface FormContext {
  duressOnly: ReadonlySet<string>;
}

/**
 * The request the form stands for. A duress-only type ticked before "Receive duress alarms" was
 * unticked is hidden, so it is not sent either: the endpoint gets exactly what the form shows.
 */
function toRequest(form: WebhookForm, duressOnly: ReadonlySet<string>) {
  return {
    name: form.name,
    url: form.url,
    eventTypes: form.receivesDuress ? form.eventTypes : form.eventTypes.filter((type) => !duressOnly.has(type)),
    ...(form.teams === 'chosen' ? { teamIds: form.teamIds } : {}),
    receivesDuress: form.receivesDuress,
  };
}

// The gateway's own schema checks the request the form makes: the words under a field are the gateway's.
const schemaResolver = zodResolver(createWebhookEndpointSchema);
const resolver: Resolver<WebhookForm, FormContext, CreateWebhookEndpointRequest> = (values, context, options) =>
  schemaResolver(
    toRequest(values, context?.duressOnly ?? new Set()),
    context,
    options as unknown as ResolverOptions<CreateWebhookEndpointRequest>,
  ) as ReturnType<Resolver<WebhookForm, FormContext, CreateWebhookEndpointRequest>>;

/** Where a refusal's `field` ("eventTypes.0", "teams") is shown on this form. */
function formField(field: string | undefined): WebhookField | undefined {
  const head = field?.split('.')[0];
  const named = head === 'teams' ? 'teamIds' : head;
  return FIELDS.find((f) => f === named);
}

interface WebhookEndpointFormProps {
  onCreated(created: { endpoint: WebhookEndpoint; secret: string }): void;
}

/** Adds an endpoint: what it is called, where it is, which events of which teams it receives. */
export function WebhookEndpointForm({ onCreated }: WebhookEndpointFormProps) {
  const t = useT();
  const { toast } = useToast();
  const { user } = useAuth();
  const eventTypes = useQuery({ queryKey: WEBHOOK_EVENT_TYPES_KEY, queryFn: fetchEventTypes, staleTime: Number.POSITIVE_INFINITY });
  const teams = useQuery({ queryKey: ['teams', 'names'], queryFn: fetchTeamNames });
  const types = eventTypes.data ?? [];
  const duressOnly = new Set(types.filter((e) => e.duressOnly).map((e) => e.type));
  // After a first attempt the messages follow the input, so a fixed field clears at once.
  const form = useForm<WebhookForm, FormContext, CreateWebhookEndpointRequest>({
    resolver,
    context: { duressOnly },
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const events = useController({ control: form.control, name: 'eventTypes' });
  const chosenTeams = useController({ control: form.control, name: 'teamIds' });
  const receivesDuress = form.watch('receivesDuress');
  const teamChoice = form.watch('teams');
  const baseId = useId();
  const id = (field: WebhookField) => `${baseId}-${field}`;
  const errorId = (field: WebhookField) => `${baseId}-${field}-error`;

  const create = useMutation({
    mutationFn: createEndpoint,
    onSuccess: (created) => {
      form.reset(EMPTY);
      onCreated(created);
    },
    onError: (e) => {
      const message = failureMessage(e, msg('The endpoint could not be added. Please try again.'));
      const field = formField(failureField(e));
      if (field) form.setError(field, { message }, { shouldFocus: true });
      else toast({ title: t('Endpoint not added'), message: t(message), type: 'error' });
    },
  });
  const onCreate = form.handleSubmit((request) => create.mutateAsync(request).catch(() => undefined));

  const error = (field: WebhookField) => (
    <FieldError id={errorId(field)} testId={`webhook-${field}-error`}>
      {errors[field]?.message ? t(errors[field].message) : null}
    </FieldError>
  );
  const described = (field: WebhookField, hint?: string) =>
    [hint, errors[field] ? errorId(field) : ''].filter(Boolean).join(' ') || undefined;
  const toggle = <T,>(list: readonly T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

  const eventBox = (e: WebhookEventType, index: number) => (
    <Checkbox
      key={e.type}
      ref={index === 0 ? events.field.ref : undefined}
      checked={events.field.value.includes(e.type)}
      onChange={(change) => events.field.onChange(toggle(events.field.value, e.type, change.target.checked))}
      aria-invalid={errors.eventTypes ? true : undefined}
      label={
        <>
          {eventTypeText(e, t)} <code>{e.type}</code>
        </>
      }
      data-testid={`webhook-event-${e.type}`}
    />
  );

  return (
    <form className="lws-form" noValidate onSubmit={(event) => void onCreate(event)} aria-label={t('Add a webhook endpoint')}>
      <div className="lws-field">
        <Label htmlFor={id('name')}>{t('Endpoint name')}</Label>
        <Input
          id={id('name')}
          {...form.register('name')}
          maxLength={NAME_MAX}
          autoComplete="off"
          invalid={Boolean(errors.name)}
          aria-describedby={described('name')}
          data-testid="webhook-name"
        />
        {error('name')}
      </div>
      <div className="lws-field">
        <Label htmlFor={id('url')}>{t('Endpoint URL')}</Label>
        <Input
          id={id('url')}
          type="url"
          inputMode="url"
          {...form.register('url')}
          maxLength={URL_MAX}
          autoComplete="off"
          spellCheck={false}
          invalid={Boolean(errors.url)}
          aria-describedby={described('url', `${baseId}-url-hint`)}
          data-testid="webhook-url"
        />
        <p id={`${baseId}-url-hint`} className="lws-field-hint">
          {t('Events are sent as HTTPS POST requests to this address. It must be reachable from the internet.')}
        </p>
        {error('url')}
      </div>

      <fieldset className="lws-fieldset" aria-describedby={described('eventTypes')} data-testid="webhook-events">
        <legend className="lws-label">{t('Events it receives')}</legend>
        {eventTypes.isPending ? (
          <div role="status" aria-label={t('Loading event types')}>
            <Skeleton height="4rem" />
          </div>
        ) : eventTypes.isError ? (
          <Alert variant="error" data-testid="webhook-events-load-error">
            {t('The event types could not be loaded.')}
          </Alert>
        ) : (
          types.filter((e) => !e.duressOnly).map(eventBox)
        )}
        <Checkbox
          {...form.register('receivesDuress')}
          label={t('Receive duress alarms')}
          aria-describedby={receivesDuress ? `${baseId}-duress-warning` : undefined}
          data-testid="webhook-receives-duress"
        />
        {receivesDuress ? (
          <>
            <Alert variant="warning" id={`${baseId}-duress-warning`} data-testid="webhook-duress-warning">
              {t(
                'A duress alarm is silent: the worker may be with the person threatening them, and nothing on their phone shows it. Send duress only to an alarm receiving centre trained to respond to it, never to a system other people can read.',
              )}
            </Alert>
            {types.filter((e) => e.duressOnly).map(eventBox)}
          </>
        ) : null}
        {error('eventTypes')}
      </fieldset>

      <fieldset className="lws-fieldset" aria-describedby={described('teamIds')} data-testid="webhook-teams">
        <legend className="lws-label">{t('Teams')}</legend>
        <label className="lws-checkbox">
          <input type="radio" value="all" className="lws-checkbox__input" {...form.register('teams')} data-testid="webhook-teams-all" />
          <span className="lws-checkbox__label">
            {user?.role === 'superadmin' ? t('Every team, including teams added later') : t('Every team you monitor')}
          </span>
        </label>
        <label className="lws-checkbox">
          <input
            type="radio"
            value="chosen"
            className="lws-checkbox__input"
            {...form.register('teams')}
            data-testid="webhook-teams-chosen"
          />
          <span className="lws-checkbox__label">{t('Only the teams I choose')}</span>
        </label>
        {teamChoice === 'chosen' ? (
          <div className="lws-fieldset" role="group" aria-label={t('Teams it receives events of')}>
            {teams.isError ? (
              <Alert variant="error">{t('The teams could not be loaded.')}</Alert>
            ) : (teams.data ?? []).length === 0 && !teams.isPending ? (
              <p className="lws-muted">{t('No teams yet.')}</p>
            ) : (
              (teams.data ?? []).map((team, index) => (
                <Checkbox
                  key={team.id}
                  ref={index === 0 ? chosenTeams.field.ref : undefined}
                  label={team.name}
                  checked={chosenTeams.field.value.includes(team.id)}
                  onChange={(change) => chosenTeams.field.onChange(toggle(chosenTeams.field.value, team.id, change.target.checked))}
                  aria-invalid={errors.teamIds ? true : undefined}
                />
              ))
            )}
          </div>
        ) : null}
        {error('teamIds')}
      </fieldset>

      <div className="lws-actions">
        <Button type="submit" busy={create.isPending} data-testid="webhook-create">
          {t('Add endpoint')}
        </Button>
      </div>
    </form>
  );
}
