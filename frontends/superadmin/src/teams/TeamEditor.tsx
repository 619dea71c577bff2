import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FieldError,
  Input,
  Label,
  Select,
  Switch,
  Textarea,
  api,
  failureField,
  failureMessage,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import {
  ALARM_KINDS,
  INTERVALS,
  parsePeople,
  starterSteps,
  type AlarmKind,
  type Person,
  type PolicyStep,
  type Team,
  type TeamMonitor,
} from './teams-api';
import { teamFormSchema } from '@lws/schemas';
import { cleanStep, PolicyEditor, stepsProblem } from './PolicyEditor';
import { OnCallEditor } from './OnCallEditor';
import { checkVisitTypes, visitTypeDrafts, VisitTypesEditor, type VisitTypeDraft } from './VisitTypesEditor';

interface TeamEditorProps {
  team: Team;
  admins: Person[];
  workers: Person[];
  locations: { id: number; name: string }[];
  onSaved: () => void;
}

/**
 * One team, as the superadmin edits it: name, locations, monitors in order with deputies, the
 * check-in policy, emergency numbers, its own escalation policy (or the organisation's), its visit
 * types (risk levels), its on-call rota (saved apart, by its own call), and its members, to whom a
 * worker can be moved.
 */
export function TeamEditor({ team, admins, workers, locations, onSaved }: TeamEditorProps) {
  const { toast } = useToast();
  const t = useT();
  const [name, setName] = useState(team.name);
  const [locationIds, setLocationIds] = useState(team.locationIds);
  const [monitors, setMonitors] = useState<TeamMonitor[]>(team.monitors);
  const [defaultInterval, setDefaultInterval] = useState(team.checkInPolicy.defaultInterval);
  const [allowed, setAllowed] = useState(team.checkInPolicy.allowedIntervals);
  const [numbers, setNumbers] = useState(team.emergencyNumbers.join('\n'));
  const [voiceReminder, setVoiceReminder] = useState(team.voiceReminder === true);
  const [ownPolicy, setOwnPolicy] = useState(team.escalationPolicy !== null);
  const [steps, setSteps] = useState<Record<AlarmKind, PolicyStep[]>>({
    missed_check_in: team.escalationPolicy?.missed_check_in ?? starterSteps('missed_check_in'),
    emergency: team.escalationPolicy?.emergency ?? starterSteps('emergency'),
  });
  const [visitTypes, setVisitTypes] = useState<VisitTypeDraft[]>(() => visitTypeDrafts(team.visitTypes ?? []));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [moving, setMoving] = useState('');
  // Who is in the team; an empty list when it cannot be read (the editor still works).
  const membersQuery = useQuery({
    queryKey: ['teams', 'members', team.id],
    queryFn: async ({ signal }) => parsePeople(await api.get(`/api/teams/${team.id}/members`, { signal })),
  });
  const members = membersQuery.data ?? (membersQuery.error ? [] : null);
  const loadMembers = () => membersQuery.refetch();

  const nameOf = (id: number | undefined) => admins.find((a) => a.id === id)?.name ?? (id ? `#${id}` : '');
  const setMonitor = (i: number, patch: Partial<TeamMonitor>) =>
    setMonitors(
      monitors.map((m, j) => {
        if (j !== i) return m;
        const next = { ...m, ...patch };
        if (next.deputyUserId === undefined || Number.isNaN(next.deputyUserId)) delete next.deputyUserId;
        return next;
      }),
    );

  const policyProblem = ownPolicy ? ALARM_KINDS.map((k) => stepsProblem(steps[k.kind], t)).find(Boolean) : undefined;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // The gateway's own rules for the team's fields, before anything is sent; the policy has its editor's.
    const checked = teamFormSchema.safeParse({
      name,
      locationIds,
      monitors,
      checkInPolicy: { defaultInterval, allowedIntervals: allowed },
      emergencyNumbers: numbers
        .split(/[\n,]/)
        .map((n) => n.trim())
        .filter(Boolean),
      voiceReminder,
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setError({ message: t(issue.message), field: issue.path.join('.') });
      return;
    }
    if (policyProblem) {
      setError({ message: policyProblem, field: 'escalationPolicy' });
      return;
    }
    const types = checkVisitTypes(visitTypes, t);
    if (!types.ok) {
      setError({ message: types.message, field: types.field });
      return;
    }
    setSaving(true);
    setError(null);
    try {
      await api.patch(`/api/teams/${team.id}`, {
        ...checked.data,
        escalationPolicy: ownPolicy
          ? { missed_check_in: steps.missed_check_in.map(cleanStep), emergency: steps.emergency.map(cleanStep) }
          : null,
        visitTypes: types.types,
      });
      toast({ title: t('Team saved'), message: t('{{name}} is saved; its next alarms follow it', { name: checked.data.name }) });
      onSaved();
    } catch (e) {
      setError({ message: t(failureMessage(e, msg('The team could not be saved. Please try again.'))), field: failureField(e) });
    } finally {
      setSaving(false);
    }
  };

  const moveHere = async () => {
    const userId = Number(moving);
    if (!userId) return;
    try {
      await api.patch(`/api/users/${userId}`, { teamId: team.id });
      toast({
        title: t('Worker moved'),
        message: t('{{name}} is now in {{team}}', { name: workers.find((w) => w.id === userId)?.name ?? t('The worker'), team: team.name }),
      });
      setMoving('');
      await loadMembers();
      onSaved();
    } catch (e) {
      toast({ title: t('Move failed'), message: t(failureMessage(e, msg('The worker could not be moved.'))), type: 'error' });
    }
  };

  const fieldError = (prefix: string) => (error?.field?.startsWith(prefix) ? error.message : undefined);
  /** Removing or adding a type moves the ones after it: an error naming one by its place no longer points at it. */
  const changeVisitTypes = (next: VisitTypeDraft[]) => {
    if (next.length !== visitTypes.length && error?.field?.startsWith('visitTypes')) setError(null);
    setVisitTypes(next);
  };

  // Three parts, each saved by its own call: the team's fields (this form), its on-call rota and its members.
  return (
    <div className="lws-form" data-testid="team-editor">
      <form className="lws-form" onSubmit={(e) => void save(e)} aria-label={t('Edit {{name}}', { name: team.name })}>
        <div className="lws-field">
          <Label htmlFor="team-name">{t('Team name')}</Label>
          <Input
            id="team-name"
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            invalid={!!fieldError('name')}
            data-testid="team-name"
          />
          <FieldError id="team-name-error">{fieldError('name')}</FieldError>
        </div>

        <fieldset className="lws-fieldset">
          <legend>{t('Locations its workers work at')}</legend>
          {locations.length === 0 ? <p className="lws-muted">{t('No locations yet.')}</p> : null}
          {locations.map((l) => (
            <Checkbox
              key={l.id}
              label={l.name}
              checked={locationIds.includes(l.id)}
              onChange={(e) => setLocationIds(e.target.checked ? [...locationIds, l.id] : locationIds.filter((id) => id !== l.id))}
            />
          ))}
        </fieldset>

        <fieldset className="lws-fieldset" data-testid="team-monitors">
          <legend>{t('Monitors, in the order they are told')}</legend>
          <ol className="lws-list">
            {monitors.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a monitor row is its position (monitor 1, 2...): every field is controlled and drawn from it.
              <li key={i} className="lws-actions" data-testid="team-monitor">
                <Select
                  aria-label={t('Monitor {{number}}', { number: i + 1 })}
                  value={m.userId}
                  onChange={(e) => setMonitor(i, { userId: Number(e.target.value) })}
                >
                  {admins.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
                </Select>
                <Select
                  aria-label={t('Deputy for monitor {{number}}', { number: i + 1 })}
                  value={m.deputyUserId ?? ''}
                  onChange={(e) => setMonitor(i, { deputyUserId: e.target.value ? Number(e.target.value) : undefined })}
                >
                  <option value="">{t('No deputy')}</option>
                  {admins
                    .filter((a) => a.id !== m.userId)
                    .map((a) => (
                      <option key={a.id} value={a.id}>
                        {t('Deputy: {{name}}', { name: a.name })}
                      </option>
                    ))}
                </Select>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => setMonitors(monitors.filter((_, j) => j !== i))}
                  aria-label={t('Remove {{name}}', { name: nameOf(m.userId) })}
                >
                  {t('Remove')}
                </Button>
              </li>
            ))}
          </ol>
          <Select
            aria-label={t('Add a monitor')}
            value=""
            onChange={(e) => e.target.value && setMonitors([...monitors, { userId: Number(e.target.value) }])}
            data-testid="team-add-monitor"
          >
            <option value="">{t('Add a monitor…')}</option>
            {admins
              .filter((a) => !monitors.some((m) => m.userId === a.id))
              .map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.username})
                </option>
              ))}
          </Select>
          <FieldError id="team-monitors-error">{fieldError('monitors')}</FieldError>
        </fieldset>

        <fieldset className="lws-fieldset">
          <legend>{t('Check-in policy')}</legend>
          {INTERVALS.map((n) => (
            <Checkbox
              key={n}
              label={t('{{minutes}} minutes', { minutes: n })}
              checked={allowed.includes(n)}
              onChange={(e) => setAllowed(e.target.checked ? [...allowed, n].sort((a, b) => a - b) : allowed.filter((x) => x !== n))}
            />
          ))}
          <Label htmlFor="team-default-interval">{t('Default interval')}</Label>
          <Select id="team-default-interval" value={defaultInterval} onChange={(e) => setDefaultInterval(Number(e.target.value))}>
            {INTERVALS.map((n) => (
              <option key={n} value={n}>
                {t('{{minutes}} minutes', { minutes: n })}
              </option>
            ))}
          </Select>
          <FieldError id="team-interval-error">{fieldError('checkInPolicy')}</FieldError>
          <Checkbox
            label={t('Also call 2 minutes before each check-in: workers key their PIN to check in without data')}
            checked={voiceReminder}
            onChange={(e) => setVoiceReminder(e.target.checked)}
            data-testid="team-voice-reminder"
          />
        </fieldset>

        <div className="lws-field">
          <Label htmlFor="team-numbers">{t("Emergency numbers (one per line; none: the organisation's)")}</Label>
          <Textarea id="team-numbers" rows={3} value={numbers} onChange={(e) => setNumbers(e.target.value)} data-testid="team-numbers" />
          <FieldError id="team-numbers-error">{fieldError('emergencyNumbers')}</FieldError>
        </div>

        <fieldset className="lws-fieldset" data-testid="team-policy">
          <legend>{t('Escalation policy')}</legend>
          <Switch
            label={t("This team has its own policy (off: the organisation's)")}
            checked={ownPolicy}
            onChange={(e) => setOwnPolicy(e.target.checked)}
            data-testid="team-own-policy"
          />
          {ownPolicy
            ? ALARM_KINDS.map((k) => (
                <PolicyEditor
                  key={k.kind}
                  kindLabel={t(k.label)}
                  steps={steps[k.kind]}
                  onChange={(s) => setSteps({ ...steps, [k.kind]: s })}
                  testId={`policy-${k.kind}`}
                />
              ))
            : null}
        </fieldset>

        <VisitTypesEditor types={visitTypes} onChange={changeVisitTypes} error={error} />

        {error ? (
          <Alert variant="error" data-testid="team-error">
            {error.message}
          </Alert>
        ) : null}
        <div className="lws-actions">
          <Button type="submit" busy={saving} data-testid="team-save">
            {t('Save team')}
          </Button>
        </div>
      </form>

      <OnCallEditor team={team} admins={admins} />

      <fieldset className="lws-fieldset" data-testid="team-members">
        <legend>{t('Workers ({{number}})', { number: members?.length ?? team.memberCount })}</legend>
        {members === null ? (
          <p className="lws-muted">{t('Loading…')}</p>
        ) : members.length === 0 ? (
          <p className="lws-muted">{t('No workers yet.')}</p>
        ) : null}
        <ul className="lws-list">
          {members?.map((m) => (
            <li key={m.id} data-testid="team-member">
              {m.name} ({m.username})
            </li>
          ))}
        </ul>
        <div className="lws-inline-form">
          <Select
            aria-label={t('Move a worker to this team')}
            value={moving}
            onChange={(e) => setMoving(e.target.value)}
            data-testid="team-move-worker"
          >
            <option value="">{t('Move a worker here…')}</option>
            {workers
              .filter((w) => !members?.some((m) => m.id === w.id))
              .map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.username})
                </option>
              ))}
          </Select>
          <Button size="sm" variant="outline" disabled={!moving} onClick={() => void moveHere()} data-testid="team-move">
            {t('Move here')}
          </Button>
        </div>
      </fieldset>
    </div>
  );
}
