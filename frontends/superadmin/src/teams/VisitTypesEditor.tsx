import { Button, Checkbox, FieldError, Input, Label, Select, msg, useT, type Translate } from '@lws/fe-ui';
import { VISIT_TYPES_MAX, visitTypeFormFields } from '@lws/schemas';
import { cleanStep, PolicyEditor, stepsProblem } from './PolicyEditor';
import {
  ALARM_KINDS,
  VISIT_TYPE_INTERVALS,
  VISIT_TYPE_LENGTHS,
  starterSteps,
  type AlarmKind,
  type PolicyStep,
  type TeamPolicy,
  type VisitType,
} from './teams-api';

/** A visit type as the editor holds it: its own policy's steps are kept while "the team's" is chosen, as the team's are. */
export interface VisitTypeDraft {
  /** The editor's own, for React: a type keeps its fields when one above it is removed. */
  key: number;
  id?: string;
  name: string;
  minutes: number;
  checkInInterval: number | null;
  smsToo: boolean;
  ownPolicy: boolean;
  steps: Record<AlarmKind, PolicyStep[]>;
  /** Kept as it came: the editor has no field for it, and saving must not drop it. */
  repeatAfterSeconds?: number;
}

/** What a new visit type starts as: half an hour, the worker's own interval, the team's policy. */
const NEW_TYPE_MINUTES = 30;

let nextKey = 1;

function draft(type: VisitType): VisitTypeDraft {
  const policy = type.escalationPolicy;
  return {
    key: nextKey++,
    ...(type.id ? { id: type.id } : {}),
    name: type.name,
    minutes: type.minutes,
    checkInInterval: type.checkInInterval,
    smsToo: type.smsToo,
    ownPolicy: policy !== null,
    steps: {
      missed_check_in: policy?.missed_check_in ?? starterSteps('missed_check_in'),
      emergency: policy?.emergency ?? starterSteps('emergency'),
    },
    ...(policy?.repeatAfterSeconds !== undefined ? { repeatAfterSeconds: policy.repeatAfterSeconds } : {}),
  };
}

export const visitTypeDrafts = (types: readonly VisitType[]): VisitTypeDraft[] => types.map(draft);

export const newVisitType = (): VisitTypeDraft =>
  draft({ name: '', minutes: NEW_TYPE_MINUTES, checkInInterval: null, smsToo: false, escalationPolicy: null });

/** A visit type as PATCH /api/teams/{id} takes it. */
export interface VisitTypeRequest {
  id?: string;
  name: string;
  minutes: number;
  checkInInterval: number | null;
  smsToo: boolean;
  escalationPolicy: TeamPolicy | null;
}

export type VisitTypesCheck = { ok: true; types: VisitTypeRequest[] } | { ok: false; message: string; field: string };

/** Said when two types share a name whatever its case, as the gateway says it. */
const DUPLICATE_NAME = msg('Each visit type needs its own name');

/**
 * The visit types as the gateway checks them (@lws/schemas' fields, names once whatever their case,
 * at most 20), each own policy by its editor's rules; the first problem names its field as the
 * server would (`visitTypes.0.name`).
 */
export function checkVisitTypes(drafts: readonly VisitTypeDraft[], t: Translate): VisitTypesCheck {
  if (drafts.length > VISIT_TYPES_MAX) return { ok: false, message: t('At most 20 visit types'), field: 'visitTypes' };
  const names = new Set<string>();
  const types: VisitTypeRequest[] = [];
  for (const [i, d] of drafts.entries()) {
    const name = visitTypeFormFields.name.safeParse(d.name);
    if (!name.success) return { ok: false, message: t(name.error.issues[0].message), field: `visitTypes.${i}.name` };
    if (names.has(name.data.toLowerCase())) return { ok: false, message: t(DUPLICATE_NAME), field: `visitTypes.${i}.name` };
    names.add(name.data.toLowerCase());
    const minutes = visitTypeFormFields.minutes.safeParse(d.minutes);
    if (!minutes.success) return { ok: false, message: t(minutes.error.issues[0].message), field: `visitTypes.${i}.minutes` };
    const interval = visitTypeFormFields.checkInInterval.safeParse(d.checkInInterval);
    if (!interval.success) return { ok: false, message: t(interval.error.issues[0].message), field: `visitTypes.${i}.checkInInterval` };
    const problem = d.ownPolicy ? ALARM_KINDS.map((k) => stepsProblem(d.steps[k.kind], t)).find(Boolean) : undefined;
    if (problem) return { ok: false, message: problem, field: `visitTypes.${i}.escalationPolicy` };
    types.push({
      ...(d.id ? { id: d.id } : {}),
      name: name.data,
      minutes: minutes.data,
      checkInInterval: interval.data,
      smsToo: d.smsToo,
      escalationPolicy: d.ownPolicy
        ? {
            missed_check_in: d.steps.missed_check_in.map(cleanStep),
            emergency: d.steps.emergency.map(cleanStep),
            ...(d.repeatAfterSeconds !== undefined ? { repeatAfterSeconds: d.repeatAfterSeconds } : {}),
          }
        : null,
    });
  }
  return { ok: true, types };
}

/** The listed choices with the type's own value among them when it is not one (a value set elsewhere stays as it is). */
function choices(listed: readonly number[], current: number | null): number[] {
  return current === null || listed.includes(current) ? [...listed] : [...listed, current].sort((a, b) => a - b);
}

interface VisitTypesEditorProps {
  types: VisitTypeDraft[];
  onChange(types: VisitTypeDraft[]): void;
  /** The editor's problem, from its own checks or the server's answer, with the field it names (e.g. `visitTypes.0.name`). */
  error: { message: string; field?: string } | null;
}

/**
 * A team's visit types (risk levels), in order: each with its name, default length, how often the
 * worker checks in while it lasts, SMS reminders, and the team's escalation policy or its own.
 */
export function VisitTypesEditor({ types, onChange, error }: VisitTypesEditorProps) {
  const t = useT();
  // The error of a field named whole, or of one inside it (`visitTypes.0.escalationPolicy.emergency`);
  // `visitTypes.1` is never `visitTypes.10`.
  const fieldError = (field: string, exact = false) =>
    error?.field === field || (!exact && error?.field?.startsWith(`${field}.`)) ? error.message : undefined;
  const set = (i: number, patch: Partial<VisitTypeDraft>) => onChange(types.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const minutesText = (minutes: number) => t('{{minutes}} minutes', { minutes });

  return (
    <fieldset className="lws-fieldset" data-testid="visit-types">
      <legend>{t('Visit types')}</legend>
      <p className="lws-muted">
        {t(
          'The kinds of timed visit its workers can start, e.g. "Home visit, high risk": each with its own length, check-ins and escalation.',
        )}
      </p>
      {types.length === 0 ? (
        <p className="lws-muted" data-testid="visit-types-empty">
          {t('No visit types: workers start a visit without one.')}
        </p>
      ) : null}
      {types.map((d, i) => {
        const id = `visit-type-${i}`;
        const nameError = fieldError(`visitTypes.${i}.name`);
        const minutesError = fieldError(`visitTypes.${i}.minutes`);
        const intervalError = fieldError(`visitTypes.${i}.checkInInterval`);
        const smsError = fieldError(`visitTypes.${i}.smsToo`);
        const policyError = fieldError(`visitTypes.${i}.escalationPolicy`);
        const typeError = fieldError(`visitTypes.${i}`, true) ?? fieldError(`visitTypes.${i}.id`);
        return (
          <fieldset key={d.key} className="lws-fieldset" data-testid="visit-type" data-visit-type-id={d.id}>
            <legend>{t('Visit type {{number}}', { number: i + 1 })}</legend>
            <div className="lws-field">
              <Label htmlFor={`${id}-name`}>{t('Name')}</Label>
              <Input
                id={`${id}-name`}
                value={d.name}
                maxLength={60}
                placeholder={t('e.g. Home visit, high risk')}
                onChange={(e) => set(i, { name: e.target.value })}
                invalid={!!nameError}
                aria-describedby={nameError ? `${id}-name-error` : undefined}
                data-testid="visit-type-name"
              />
              <FieldError id={`${id}-name-error`} testId="visit-type-name-error">
                {nameError}
              </FieldError>
            </div>
            <div className="lws-field">
              <Label htmlFor={`${id}-minutes`}>{t('Default length')}</Label>
              <Select
                id={`${id}-minutes`}
                value={d.minutes}
                onChange={(e) => set(i, { minutes: Number(e.target.value) })}
                aria-describedby={minutesError ? `${id}-minutes-error` : undefined}
                data-testid="visit-type-minutes"
              >
                {choices(VISIT_TYPE_LENGTHS, d.minutes).map((n) => (
                  <option key={n} value={n}>
                    {minutesText(n)}
                  </option>
                ))}
              </Select>
              <FieldError id={`${id}-minutes-error`} testId="visit-type-minutes-error">
                {minutesError}
              </FieldError>
            </div>
            <div className="lws-field">
              <Label htmlFor={`${id}-interval`}>{t('Check in every')}</Label>
              <Select
                id={`${id}-interval`}
                value={d.checkInInterval ?? ''}
                onChange={(e) => set(i, { checkInInterval: e.target.value ? Number(e.target.value) : null })}
                aria-describedby={`${id}-interval-hint${intervalError ? ` ${id}-interval-error` : ''}`}
                data-testid="visit-type-interval"
              >
                <option value="">{t("The worker's own interval")}</option>
                {choices(VISIT_TYPE_INTERVALS, d.checkInInterval).map((n) => (
                  <option key={n} value={n}>
                    {minutesText(n)}
                  </option>
                ))}
              </Select>
              <p className="lws-field-hint" id={`${id}-interval-hint`}>
                {t('How often the worker checks in while the visit lasts.')}
              </p>
              <FieldError id={`${id}-interval-error`} testId="visit-type-interval-error">
                {intervalError}
              </FieldError>
            </div>
            <Checkbox
              label={t('Remind by SMS too')}
              checked={d.smsToo}
              onChange={(e) => set(i, { smsToo: e.target.checked })}
              data-testid="visit-type-sms"
            />
            <FieldError id={`${id}-sms-error`}>{smsError}</FieldError>
            <fieldset className="lws-fieldset" data-testid="visit-type-policy">
              <legend>{t('Escalation policy')}</legend>
              <label className="lws-checkbox">
                <input
                  type="radio"
                  className="lws-checkbox__input"
                  name={`${id}-policy`}
                  checked={!d.ownPolicy}
                  onChange={() => set(i, { ownPolicy: false })}
                  data-testid="visit-type-team-policy"
                />
                <span className="lws-checkbox__label">{t("The team's escalation policy")}</span>
              </label>
              <label className="lws-checkbox">
                <input
                  type="radio"
                  className="lws-checkbox__input"
                  name={`${id}-policy`}
                  checked={d.ownPolicy}
                  onChange={() => set(i, { ownPolicy: true })}
                  data-testid="visit-type-own-policy"
                />
                <span className="lws-checkbox__label">{t('Its own policy')}</span>
              </label>
              {d.ownPolicy
                ? ALARM_KINDS.map((k) => (
                    <PolicyEditor
                      key={k.kind}
                      kindLabel={t(k.label)}
                      steps={d.steps[k.kind]}
                      onChange={(s) => set(i, { steps: { ...d.steps, [k.kind]: s } })}
                      testId={`${id}-policy-${k.kind}`}
                    />
                  ))
                : null}
              <FieldError id={`${id}-policy-error`} testId="visit-type-policy-error">
                {policyError}
              </FieldError>
            </fieldset>
            <FieldError id={`${id}-error`}>{typeError}</FieldError>
            <div className="lws-actions">
              <Button
                size="sm"
                variant="outline"
                onClick={() => onChange(types.filter((_, j) => j !== i))}
                aria-label={
                  d.name.trim()
                    ? t('Remove visit type {{name}}', { name: d.name.trim() })
                    : t('Remove visit type {{number}}', { number: i + 1 })
                }
                data-testid="remove-visit-type"
              >
                {t('Remove')}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div className="lws-actions">
        <Button
          size="sm"
          variant="outline"
          disabled={types.length >= VISIT_TYPES_MAX}
          onClick={() => onChange([...types, newVisitType()])}
          data-testid="add-visit-type"
        >
          {t('Add a visit type')}
        </Button>
      </div>
      <FieldError id="visit-types-error" testId="visit-types-error">
        {fieldError('visitTypes', true)}
      </FieldError>
    </fieldset>
  );
}
