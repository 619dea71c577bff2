import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FieldError,
  Input,
  Label,
  Select,
  Switch,
  api,
  failureField,
  failureMessage,
  msg,
  useT,
  useToast,
  type Translate,
} from '@lws/fe-ui';
import {
  COVER_REQUIRED,
  DEFAULT_ON_CALL_ZONE,
  ON_CALL_MAX_LAYERS,
  ON_CALL_ROTATIONS,
  onCallOverrideSchema,
  putOnCallScheduleSchema,
  type CoverRequired,
} from '@lws/schemas';
import {
  TEAMS_WITH_MEMBERS_KEY,
  parseOnCallOverride,
  parseOnCallTimeline,
  parseTeams,
  rotaTimelineKey,
  type OnCallLayer,
  type OnCallOverride,
  type OnCallRotation,
  type OnCallSchedule,
  type Person,
  type Team,
} from './teams-api';
import { OnCallTimelinePicture, personColours } from './OnCallTimeline';
import { browserZone, DAY_MS, HOUR_MS, instantOfLocalInput, localInputValue, WEEKDAYS, zoneStamp } from '@lws/fe-ui';

const COVER_TEXT: Record<CoverRequired, string> = {
  off: msg('Nothing: the shift starts as usual'),
  warn: msg('Warn the worker as the shift starts'),
  refuse: msg('Refuse the shift'),
};
const ROTATION_TEXT: Record<OnCallRotation, string> = {
  daily: msg('Daily: the next person each day'),
  weekly: msg('Weekly: the next person each week'),
  custom: msg('Custom: the next person every few days'),
};
/** The timeline drawn: the next two weeks. */
const TIMELINE_DAYS = 14;

interface WindowDraft {
  key: number;
  days: number[];
  from: string;
  to: string;
}

/** A layer as the form holds it: the turn length as typed, and keys for its lists. */
interface LayerDraft {
  key: number;
  name: string;
  rotation: OnCallRotation;
  turnDays: string;
  start: string;
  userIds: number[];
  windows: WindowDraft[];
}

let lastKey = 0;
const nextKey = () => {
  lastKey += 1;
  return lastKey;
};

const draftOf = (layer: OnCallLayer): LayerDraft => ({
  key: nextKey(),
  name: layer.name,
  rotation: layer.rotation,
  turnDays: layer.turnDays === undefined ? '' : String(layer.turnDays),
  start: layer.start,
  userIds: layer.userIds,
  windows: (layer.windows ?? []).map((w) => ({ key: nextKey(), days: w.days, from: w.from, to: w.to })),
});

const newLayer = (number: number, t: Translate): LayerDraft => ({
  key: nextKey(),
  name: t('Layer {{number}}', { number }),
  rotation: 'weekly',
  turnDays: '',
  start: `${localInputValue(Date.now()).slice(0, 10)}T08:00`,
  userIds: [],
  windows: [],
});

/** The layer as PUT .../on-call-schedule takes it: a turn length for a custom rotation only, windows only when there are some. */
function layerRequest(layer: LayerDraft) {
  const turnDays = layer.turnDays.trim() === '' ? undefined : Number(layer.turnDays);
  return {
    name: layer.name,
    start: layer.start.slice(0, 16),
    rotation: layer.rotation,
    ...(layer.rotation === 'custom' ? { turnDays } : {}),
    userIds: layer.userIds,
    ...(layer.windows.length > 0
      ? { windows: layer.windows.map((w) => ({ days: [...w.days].sort((a, b) => a - b), from: w.from.slice(0, 5), to: w.to.slice(0, 5) })) }
      : {}),
  };
}

const move = <T,>(items: T[], from: number, to: number): T[] => {
  if (to < 0 || to >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
};

/** What a field of the rota's request (as the schema or the server names it) is called on screen. */
export function rotaFieldName(field: string | undefined, t: Translate): string | undefined {
  const parts = (field ?? '').split('.');
  if (parts[0] === 'coverRequired') return t('When nobody is on call for a shift');
  if (parts[0] !== 'schedule') return undefined;
  if (parts[1] === 'timeZone') return t('Time zone');
  if (parts[1] !== 'layers') return undefined;
  if (parts[2] === undefined) return t('Layers');
  const number = Number(parts[2]) + 1;
  switch (parts[3]) {
    case 'name':
      return t('Layer {{number}} name', { number });
    case 'start':
      return t('Layer {{number}} start', { number });
    case 'rotation':
    case 'turnDays':
      return t('Layer {{number}} rotation', { number });
    case 'userIds':
      return t('Layer {{number}} people', { number });
    case 'windows':
      return t('Layer {{number}} restricted hours', { number });
    default:
      return t('Layer {{number}}', { number });
  }
}

/** What a field of an override is called on screen. */
function overrideFieldName(field: string | undefined, t: Translate): string | undefined {
  switch (field?.split('.')[0]) {
    case 'layer':
      return t('Layer');
    case 'userId':
      return t('Person');
    case 'start':
      return t('From');
    case 'end':
      return t('To');
    default:
      return undefined;
  }
}

interface Problem {
  message: string;
  field?: string;
}

/** The problem as shown: the field's name first when it has one. */
const said = (problem: Problem, name: (field: string | undefined, t: Translate) => string | undefined, t: Translate) => {
  const field = name(problem.field, t);
  return field ? t('{{field}}: {{problem}}', { field, problem: problem.message }) : problem.message;
};

interface OnCallEditorProps {
  team: Team;
  /** The admins, for the names of the team's monitors and deputies. */
  admins: Person[];
}

/**
 * A team's on-call rota, as the superadmin edits it: whether it has one, its zone, what a shift
 * without cover meets, and its layers in priority order (each a rotation of the team's monitors and
 * deputies, from a start whose time of day is the hand-off, at all hours or only some); the next
 * two weeks drawn as the server resolves them; and the overrides that put someone in a layer's
 * place for a while. Saved with its own calls, apart from the team's other fields.
 */
export function OnCallEditor({ team, admins }: OnCallEditorProps) {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const id = useId();
  const initial = team.onCallSchedule ?? null;

  // The rota as saved: what the timeline draws and the overrides belong to.
  const [saved, setSaved] = useState<OnCallSchedule | null>(initial);
  const [coverSaved, setCoverSaved] = useState<CoverRequired>(team.coverRequired ?? 'off');
  // The form.
  const [enabled, setEnabled] = useState(initial !== null);
  const [zone, setZone] = useState(initial?.timeZone ?? DEFAULT_ON_CALL_ZONE);
  const [cover, setCover] = useState<CoverRequired>(team.coverRequired ?? 'off');
  const [layers, setLayers] = useState<LayerDraft[]>(() => (initial?.layers ?? []).map(draftOf));
  const [error, setError] = useState<Problem | null>(null);
  // The override form.
  const [overrideLayer, setOverrideLayer] = useState('0');
  const [overrideUser, setOverrideUser] = useState('');
  const [overrideFrom, setOverrideFrom] = useState('');
  const [overrideTo, setOverrideTo] = useState('');
  const [overrideError, setOverrideError] = useState<Problem | null>(null);

  // The team's people who may be on its rota: its monitors and their deputies, as saved.
  const candidates = [...new Set(team.monitors.flatMap((m) => (m.deputyUserId ? [m.userId, m.deputyUserId] : [m.userId])))];
  const nameOf = (userId: number) => admins.find((a) => a.id === userId)?.name ?? `#${userId}`;

  // The layers an override can be for are the saved rota's: their indexes are what the server knows.
  const savedLayers = saved?.layers ?? [];
  const savedZone = saved?.timeZone ?? DEFAULT_ON_CALL_ZONE;
  const layerName = (layer: number) => savedLayers[layer]?.name || t('Layer {{number}}', { number: layer + 1 });
  const overrideText = (o: OnCallOverride) =>
    t('{{name}} covers {{layer}}, {{from}} – {{to}}', {
      name: nameOf(o.userId),
      layer: layerName(o.layer),
      from: zoneStamp(o.start, savedZone, t),
      to: zoneStamp(o.end, savedZone, t),
    });

  const timelineQuery = useQuery({
    queryKey: rotaTimelineKey(team.id),
    enabled: saved !== null,
    queryFn: async ({ signal }) => {
      const from = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
      const to = from + TIMELINE_DAYS * DAY_MS;
      const query = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
      return { from, to, timeline: parseOnCallTimeline(await api.get(`/api/teams/${team.id}/on-call/timeline?${query}`, { signal })) };
    },
  });
  const redraw = () => client.invalidateQueries({ queryKey: ['teams', team.id, 'on-call'] });

  /**
   * Keeps the Teams tab's copy of the team in step, so the editor opened again shows the rota. Its
   * version stays: the editor is keyed by it, and a new one would throw away the team's unsaved fields.
   */
  const remember = (schedule: OnCallSchedule | null, coverRequired: CoverRequired) => {
    setSaved(schedule);
    setCoverSaved(coverRequired);
    client.setQueryData<{ teams: Team[] }>(TEAMS_WITH_MEMBERS_KEY, (old) =>
      old ? { ...old, teams: old.teams.map((x) => (x.id === team.id ? { ...x, onCallSchedule: schedule, coverRequired } : x)) } : old,
    );
  };

  const saveRota = useMutation({
    mutationFn: async (body: unknown) => api.put(`/api/teams/${team.id}/on-call-schedule`, body),
    onSuccess: (answer, body) => {
      const sent = body as { schedule: Omit<OnCallSchedule, 'overrides'> | null; coverRequired: CoverRequired };
      const [answered] = parseTeams([answer]);
      const schedule = answered
        ? (answered.onCallSchedule ?? null)
        : sent.schedule && { ...sent.schedule, overrides: saved?.overrides ?? [] };
      remember(schedule, answered?.coverRequired ?? sent.coverRequired);
      setError(null);
      toast({
        title: t('Rota saved'),
        message: sent.schedule
          ? t("{{name}}'s alarms follow its on-call rota", { name: team.name })
          : t('{{name}} has no on-call rota now', { name: team.name }),
      });
      void redraw();
    },
    onError: (e) =>
      setError({ message: t(failureMessage(e, msg('The rota could not be saved. Please try again.'))), field: failureField(e) }),
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    // The gateway's own rules, before anything is sent.
    const checked = putOnCallScheduleSchema.safeParse({
      schedule: enabled ? { timeZone: zone.trim(), layers: layers.map(layerRequest) } : null,
      coverRequired: cover,
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setError({ message: t(issue.message), field: issue.path.join('.') });
      return;
    }
    setError(null);
    saveRota.mutate(checked.data);
  };

  const addOverride = useMutation({
    mutationFn: async (body: unknown) => api.post(`/api/teams/${team.id}/on-call/overrides`, body),
    onSuccess: (answer, body) => {
      const sent = body as Omit<OnCallOverride, 'id'>;
      const added = parseOnCallOverride(answer);
      if (saved && added) remember({ ...saved, overrides: [...saved.overrides, added] }, coverSaved);
      toast({ title: t('Override added'), message: overrideText(added ?? { id: '', ...sent }) });
      setOverrideError(null);
      setOverrideUser('');
      setOverrideFrom('');
      setOverrideTo('');
      void redraw();
    },
    onError: (e) =>
      setOverrideError({
        message: t(failureMessage(e, msg('The override could not be added. Please try again.'))),
        field: failureField(e),
      }),
  });

  const submitOverride = (event: FormEvent) => {
    event.preventDefault();
    const checked = onCallOverrideSchema.safeParse({
      layer: Number(overrideLayer),
      userId: overrideUser ? Number(overrideUser) : undefined,
      start: instantOfLocalInput(overrideFrom),
      end: instantOfLocalInput(overrideTo),
    });
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setOverrideError({ message: t(issue.message), field: issue.path.join('.') });
      return;
    }
    setOverrideError(null);
    addOverride.mutate(checked.data);
  };

  const removeOverride = useMutation({
    mutationFn: async (override: OnCallOverride) => api.delete(`/api/teams/${team.id}/on-call/overrides/${override.id}`),
    onSuccess: (_answer, override) => {
      if (saved) remember({ ...saved, overrides: saved.overrides.filter((o) => o.id !== override.id) }, coverSaved);
      toast({
        title: t('Override removed'),
        message: t('{{layer}} follows its rotation again, {{from}} – {{to}}', {
          layer: layerName(override.layer),
          from: zoneStamp(override.start, savedZone, t),
          to: zoneStamp(override.end, savedZone, t),
        }),
      });
      setOverrideError(null);
      void redraw();
    },
    onError: (e) =>
      setOverrideError({
        message: t(failureMessage(e, msg('The override could not be removed. Please try again.'))),
        field: failureField(e),
      }),
  });

  const setLayer = (i: number, patch: Partial<LayerDraft>) => setLayers(layers.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const setWindow = (i: number, key: number, patch: Partial<WindowDraft>) =>
    setLayer(i, { windows: layers[i].windows.map((w) => (w.key === key ? { ...w, ...patch } : w)) });
  const layerError = (i: number) => (error?.field?.startsWith(`schedule.layers.${i}.`) ? error.message : undefined);
  const invalid = (field: string) => !!error?.field?.startsWith(field);

  const enable = (on: boolean) => {
    setEnabled(on);
    if (on && layers.length === 0) setLayers([newLayer(1, t)]);
  };

  const overrides = [...(saved?.overrides ?? [])].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  const localZone = browserZone();
  const drawn = timelineQuery.data;
  const legend = drawn ? [...personColours(drawn.timeline)] : [];

  const pick = (layer: number, from: number, to: number) => {
    setOverrideLayer(String(layer));
    setOverrideFrom(localInputValue(from));
    setOverrideTo(localInputValue(to));
    setOverrideError(null);
    document.getElementById(`${id}-override-person`)?.focus();
  };

  return (
    <section className="lws-form" data-testid="on-call-editor" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="lws-section-title">
        {t('On-call rota')}
      </h3>
      <form className="lws-form" onSubmit={save} aria-label={t('On-call rota of {{name}}', { name: team.name })}>
        <Switch
          label={t('This team has an on-call rota')}
          checked={enabled}
          onChange={(e) => enable(e.target.checked)}
          data-testid="on-call-enabled"
        />
        {enabled ? (
          <>
            <p className="lws-muted">
              {t(
                "Layers are in priority order: at each moment the first layer with someone on call answers the team's alarms. Only the team's saved monitors and deputies can be on it.",
              )}
            </p>
            <div className="lws-grid-2">
              <div className="lws-field">
                <Label htmlFor={`${id}-zone`}>{t('Time zone')}</Label>
                <Input
                  id={`${id}-zone`}
                  value={zone}
                  maxLength={64}
                  onChange={(e) => setZone(e.target.value)}
                  invalid={invalid('schedule.timeZone')}
                  aria-describedby={`${id}-zone-hint`}
                  data-testid="on-call-zone"
                />
                <p id={`${id}-zone-hint`} className="lws-muted">
                  {t('The zone the starts and hours are in, e.g. Europe/London')}
                </p>
              </div>
              <div className="lws-field">
                <Label htmlFor={`${id}-cover`}>{t('When nobody is on call for a shift')}</Label>
                <Select
                  id={`${id}-cover`}
                  value={cover}
                  onChange={(e) => setCover(e.target.value as CoverRequired)}
                  data-testid="on-call-cover"
                >
                  {COVER_REQUIRED.map((c) => (
                    <option key={c} value={c}>
                      {t(COVER_TEXT[c])}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
            {candidates.length === 0 ? (
              <Alert variant="warning" data-testid="on-call-no-people">
                {t('The team has no monitors yet: add them and save the team first.')}
              </Alert>
            ) : null}
            <ol className="lws-list">
              {layers.map((layer, i) => (
                <li key={layer.key} className="lws-list__item" data-testid="on-call-layer">
                  <fieldset className="lws-fieldset" style={{ flex: '1 1 100%' }}>
                    <legend>{t('Layer {{number}}', { number: i + 1 })}</legend>
                    <div className="lws-grid-2">
                      <div className="lws-field">
                        <Label htmlFor={`${id}-layer-${layer.key}-name`}>{t('Name')}</Label>
                        <Input
                          id={`${id}-layer-${layer.key}-name`}
                          value={layer.name}
                          maxLength={60}
                          onChange={(e) => setLayer(i, { name: e.target.value })}
                          invalid={invalid(`schedule.layers.${i}.name`)}
                          data-testid="on-call-layer-name"
                        />
                      </div>
                      <div className="lws-field">
                        <Label htmlFor={`${id}-layer-${layer.key}-start`}>{t('Starts (its time of day is the hand-off)')}</Label>
                        <Input
                          id={`${id}-layer-${layer.key}-start`}
                          type="datetime-local"
                          value={layer.start}
                          onChange={(e) => setLayer(i, { start: e.target.value.slice(0, 16) })}
                          invalid={invalid(`schedule.layers.${i}.start`)}
                          data-testid="on-call-layer-start"
                        />
                      </div>
                      <div className="lws-field">
                        <Label htmlFor={`${id}-layer-${layer.key}-rotation`}>{t('Rotation')}</Label>
                        <Select
                          id={`${id}-layer-${layer.key}-rotation`}
                          value={layer.rotation}
                          onChange={(e) => setLayer(i, { rotation: e.target.value as OnCallRotation })}
                          invalid={invalid(`schedule.layers.${i}.rotation`)}
                          data-testid="on-call-layer-rotation"
                        >
                          {ON_CALL_ROTATIONS.map((r) => (
                            <option key={r} value={r}>
                              {t(ROTATION_TEXT[r])}
                            </option>
                          ))}
                        </Select>
                      </div>
                      {layer.rotation === 'custom' ? (
                        <div className="lws-field">
                          <Label htmlFor={`${id}-layer-${layer.key}-turn`}>{t('Days in each turn (1 to 28)')}</Label>
                          <Input
                            id={`${id}-layer-${layer.key}-turn`}
                            type="number"
                            inputMode="numeric"
                            min={1}
                            max={28}
                            value={layer.turnDays}
                            onChange={(e) => setLayer(i, { turnDays: e.target.value })}
                            invalid={invalid(`schedule.layers.${i}.turnDays`)}
                            data-testid="on-call-layer-turn-days"
                          />
                        </div>
                      ) : null}
                    </div>

                    <p className="lws-label">{t('People, in turn order')}</p>
                    {layer.userIds.length === 0 ? <p className="lws-muted">{t('Nobody yet.')}</p> : null}
                    <ol className="lws-list" data-testid="on-call-layer-people">
                      {layer.userIds.map((userId, p) => (
                        <li key={userId} className="lws-actions" data-testid="on-call-layer-member" data-user-id={userId}>
                          <span>{t('{{number}}. {{name}}', { number: p + 1, name: nameOf(userId) })}</span>
                          <Button
                            size="sm"
                            variant="ghost"
                            disabled={p === 0}
                            onClick={() => setLayer(i, { userIds: move(layer.userIds, p, p - 1) })}
                            aria-label={t('Move {{name}} earlier', { name: nameOf(userId) })}
                          >
                            ↑
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            disabled={p === layer.userIds.length - 1}
                            onClick={() => setLayer(i, { userIds: move(layer.userIds, p, p + 1) })}
                            aria-label={t('Move {{name}} later', { name: nameOf(userId) })}
                          >
                            ↓
                          </Button>
                          <Button
                            size="sm"
                            variant="outline"
                            onClick={() => setLayer(i, { userIds: layer.userIds.filter((u) => u !== userId) })}
                            aria-label={t('Take {{name}} off layer {{number}}', { name: nameOf(userId), number: i + 1 })}
                          >
                            {t('Remove')}
                          </Button>
                        </li>
                      ))}
                    </ol>
                    <Select
                      aria-label={t('Add a person to layer {{number}}', { number: i + 1 })}
                      value=""
                      onChange={(e) => e.target.value && setLayer(i, { userIds: [...layer.userIds, Number(e.target.value)] })}
                      invalid={invalid(`schedule.layers.${i}.userIds`)}
                      data-testid="on-call-layer-person"
                    >
                      <option value="">{t('Add a person…')}</option>
                      {candidates
                        .filter((c) => !layer.userIds.includes(c))
                        .map((c) => (
                          <option key={c} value={c}>
                            {nameOf(c)}
                          </option>
                        ))}
                    </Select>

                    <p className="lws-label">{t('Restricted hours')}</p>
                    <p className="lws-muted">
                      {layer.windows.length === 0
                        ? t('None: the layer covers every hour.')
                        : t('The layer covers only these hours. A "to" at or before "from" ends the next day.')}
                    </p>
                    {layer.windows.map((w, k) => (
                      <fieldset key={w.key} className="lws-fieldset" data-testid="on-call-window">
                        <legend className="lws-visually-hidden">{t('Hours {{number}}', { number: k + 1 })}</legend>
                        <div className="lws-actions">
                          {WEEKDAYS.map((day, d) => (
                            <Checkbox
                              key={day}
                              label={t(day)}
                              checked={w.days.includes(d + 1)}
                              onChange={(e) =>
                                setWindow(i, w.key, {
                                  days: e.target.checked ? [...w.days, d + 1] : w.days.filter((x) => x !== d + 1),
                                })
                              }
                            />
                          ))}
                        </div>
                        <div className="lws-inline-form">
                          <Label htmlFor={`${id}-window-${w.key}-from`}>{t('From')}</Label>
                          <Input
                            id={`${id}-window-${w.key}-from`}
                            type="time"
                            value={w.from}
                            onChange={(e) => setWindow(i, w.key, { from: e.target.value })}
                            data-testid="on-call-window-from"
                          />
                          <Label htmlFor={`${id}-window-${w.key}-to`}>{t('To')}</Label>
                          <Input
                            id={`${id}-window-${w.key}-to`}
                            type="time"
                            value={w.to}
                            onChange={(e) => setWindow(i, w.key, { to: e.target.value })}
                            data-testid="on-call-window-to"
                          />
                          <Button
                            size="sm"
                            variant="outline"
                            onClick={() => setLayer(i, { windows: layer.windows.filter((x) => x.key !== w.key) })}
                            aria-label={t('Remove hours {{hours}} of layer {{layer}}', { hours: k + 1, layer: i + 1 })}
                          >
                            {t('Remove')}
                          </Button>
                        </div>
                      </fieldset>
                    ))}
                    <div className="lws-actions">
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={layer.windows.length >= 14}
                        onClick={() =>
                          setLayer(i, {
                            windows: [...layer.windows, { key: nextKey(), days: [1, 2, 3, 4, 5, 6, 7], from: '20:00', to: '08:00' }],
                          })
                        }
                        data-testid="on-call-window-add"
                      >
                        {t('Add restricted hours')}
                      </Button>
                    </div>
                    <FieldError id={`${id}-layer-${layer.key}-error`}>{layerError(i)}</FieldError>
                    <div className="lws-actions">
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={i === 0}
                        onClick={() => setLayers(move(layers, i, i - 1))}
                        data-testid="on-call-layer-up"
                      >
                        {t('Move up')}
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={i === layers.length - 1}
                        onClick={() => setLayers(move(layers, i, i + 1))}
                        data-testid="on-call-layer-down"
                      >
                        {t('Move down')}
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => setLayers(layers.filter((_, j) => j !== i))}
                        aria-label={t('Remove layer {{number}}', { number: i + 1 })}
                        data-testid="on-call-layer-remove"
                      >
                        {t('Remove layer')}
                      </Button>
                    </div>
                  </fieldset>
                </li>
              ))}
            </ol>
            <div className="lws-actions">
              <Button
                variant="outline"
                disabled={layers.length >= ON_CALL_MAX_LAYERS}
                onClick={() => setLayers([...layers, newLayer(layers.length + 1, t)])}
                data-testid="on-call-layer-add"
              >
                {t('Add layer')}
              </Button>
              {layers.length >= ON_CALL_MAX_LAYERS ? <span className="lws-muted">{t('At most 5 layers')}</span> : null}
            </div>
          </>
        ) : null}
        {error ? (
          <Alert variant="error" data-testid="on-call-error">
            {said(error, rotaFieldName, t)}
          </Alert>
        ) : null}
        <div className="lws-actions">
          <Button type="submit" busy={saveRota.isPending} data-testid="on-call-save">
            {t('Save rota')}
          </Button>
        </div>
      </form>

      {saved ? (
        <div className="lws-form" data-testid="on-call-preview">
          <h4 className="lws-label">{t('The next 14 days, as saved')}</h4>
          {timelineQuery.isPending ? (
            <p className="lws-muted">{t('Loading the timeline…')}</p>
          ) : !drawn ? (
            <Alert variant="error" data-testid="on-call-timeline-error">
              {t('The timeline could not be loaded.')}
            </Alert>
          ) : (
            <>
              <OnCallTimelinePicture timeline={drawn.timeline} from={drawn.from} to={drawn.to} onPick={pick} />
              <p className="lws-muted">
                {t("Times in {{zone}}. Drag across a layer's row to fill in an override for it.", { zone: drawn.timeline.timeZone })}
              </p>
              {legend.length > 0 ? (
                <ul
                  className="lws-actions"
                  data-testid="on-call-legend"
                  aria-label={t('Who is who')}
                  style={{ listStyle: 'none', padding: 0 }}
                >
                  {legend.map(([userId, person]) => (
                    <li key={userId} className="lws-actions" style={{ alignItems: 'center', gap: '0.375rem' }}>
                      <span
                        aria-hidden="true"
                        style={{
                          display: 'inline-block',
                          width: '0.875rem',
                          height: '0.875rem',
                          borderRadius: 3,
                          background: person.colour,
                        }}
                      />
                      {person.name}
                    </li>
                  ))}
                </ul>
              ) : null}
              {drawn.timeline.gaps.length > 0 ? (
                <Alert variant="warning" data-testid="on-call-gaps">
                  <p>{t('Nobody is on call:')}</p>
                  <ul>
                    {drawn.timeline.gaps.map((gap) => (
                      <li key={gap.start}>
                        {t('{{from}} – {{to}}', {
                          from: zoneStamp(gap.start, drawn.timeline.timeZone, t),
                          to: zoneStamp(gap.end, drawn.timeline.timeZone, t),
                        })}
                      </li>
                    ))}
                  </ul>
                </Alert>
              ) : null}
            </>
          )}
        </div>
      ) : null}

      <fieldset className="lws-fieldset" data-testid="on-call-overrides">
        <legend>{t('Overrides')}</legend>
        {!saved ? (
          <p className="lws-muted">{t("Save a rota first: an override puts someone in a layer's place for a while.")}</p>
        ) : (
          <>
            {overrides.length === 0 ? <p className="lws-muted">{t('No overrides.')}</p> : null}
            <ul className="lws-list">
              {overrides.map((o) => (
                <li key={o.id} className="lws-list__item" data-testid="on-call-override" data-override-id={o.id}>
                  <span className={Date.parse(o.end) <= Date.now() ? 'lws-muted' : undefined}>{overrideText(o)}</span>
                  <Button
                    size="sm"
                    variant="outline"
                    busy={removeOverride.isPending && removeOverride.variables?.id === o.id}
                    onClick={() => removeOverride.mutate(o)}
                    aria-label={t("Remove {{name}}'s override", { name: nameOf(o.userId) })}
                    data-testid="on-call-override-remove"
                  >
                    {t('Remove')}
                  </Button>
                </li>
              ))}
            </ul>
            <form className="lws-form" onSubmit={submitOverride} data-testid="on-call-override-form" aria-label={t('Add an override')}>
              <div className="lws-grid-2">
                <div className="lws-field">
                  <Label htmlFor={`${id}-override-layer`}>{t('Layer')}</Label>
                  <Select
                    id={`${id}-override-layer`}
                    value={overrideLayer}
                    onChange={(e) => setOverrideLayer(e.target.value)}
                    data-testid="on-call-override-layer"
                  >
                    {savedLayers.map((l, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a saved layer is its position: the index is what an override names.
                      <option key={i} value={i}>
                        {t('{{number}}. {{name}}', { number: i + 1, name: l.name })}
                      </option>
                    ))}
                  </Select>
                </div>
                <div className="lws-field">
                  <Label htmlFor={`${id}-override-person`}>{t('Person')}</Label>
                  <Select
                    id={`${id}-override-person`}
                    value={overrideUser}
                    onChange={(e) => setOverrideUser(e.target.value)}
                    invalid={overrideError?.field === 'userId'}
                    data-testid="on-call-override-person"
                  >
                    <option value="">{t('Choose who covers…')}</option>
                    {candidates.map((c) => (
                      <option key={c} value={c}>
                        {nameOf(c)}
                      </option>
                    ))}
                  </Select>
                </div>
                <div className="lws-field">
                  <Label htmlFor={`${id}-override-from`}>{t('From')}</Label>
                  <Input
                    id={`${id}-override-from`}
                    type="datetime-local"
                    value={overrideFrom}
                    onChange={(e) => setOverrideFrom(e.target.value)}
                    invalid={overrideError?.field === 'start'}
                    data-testid="on-call-override-from"
                  />
                </div>
                <div className="lws-field">
                  <Label htmlFor={`${id}-override-to`}>{t('To')}</Label>
                  <Input
                    id={`${id}-override-to`}
                    type="datetime-local"
                    value={overrideTo}
                    onChange={(e) => setOverrideTo(e.target.value)}
                    invalid={overrideError?.field === 'end'}
                    data-testid="on-call-override-to"
                  />
                </div>
              </div>
              {localZone !== savedZone ? (
                <p className="lws-muted">{t("From and to are in this browser's time zone, {{zone}}.", { zone: localZone })}</p>
              ) : null}
              {overrideError ? (
                <Alert variant="error" data-testid="on-call-override-error">
                  {said(overrideError, overrideFieldName, t)}
                </Alert>
              ) : null}
              <div className="lws-actions">
                <Button type="submit" busy={addOverride.isPending} disabled={savedLayers.length === 0} data-testid="on-call-override-add">
                  {t('Add override')}
                </Button>
              </div>
            </form>
          </>
        )}
      </fieldset>
    </section>
  );
}
