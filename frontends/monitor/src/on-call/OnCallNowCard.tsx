import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import {
  Alert,
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  LoadView,
  formatDateTime,
  formatTime,
  loadOf,
  serverNow,
  useT,
  type Translate,
} from '@lws/fe-ui';
import {
  ON_CALL_LOOKAHEAD_MS,
  ON_CALL_POLL_MS,
  ROTA_TEAMS_KEY,
  fetchOnCallNow,
  fetchOnCallTimeline,
  fetchRotaTeams,
  gapsFrom,
  nextOnCall,
  onCallNowKey,
  onCallTimelineKey,
  type OnCallSlot,
  type OnCallTimeline,
  type RotaTeam,
} from './on-call-api';

/** The London calendar day of an instant, as the dashboard writes it ("28 Nov 2026"). */
const londonDay = (iso: string) => formatDateTime(iso).split(', ')[0];

/**
 * A time in Europe/London as the monitors' screens write it: the time of day alone ("08:00") on the
 * day of `reference`, the date too ("29 Nov 2026, 08:00") on any other day.
 */
export function onCallTime(iso: string, reference: string): string {
  return londonDay(iso) === londonDay(reference) ? formatTime(iso) : formatDateTime(iso);
}

/** Why someone other than the rota's own person is on call, as a badge; nothing when it is theirs. */
function ViaBadge({ slot, t }: { slot: OnCallSlot; t: Translate }) {
  if (slot.via === 'deputy') {
    return (
      <Badge variant="info" data-testid="on-call-via">
        {t('Deputy')}
      </Badge>
    );
  }
  if (slot.via === 'override') {
    return (
      <Badge variant="info" data-testid="on-call-via">
        {t('Cover')}
      </Badge>
    );
  }
  return null;
}

/** The gaps of the next 48 hours, from the timeline; nothing while it loads or when it failed. */
function Gaps({ timeline, at, t }: { timeline: OnCallTimeline | undefined; at: string; t: Translate }) {
  const gaps = timeline ? gapsFrom(timeline, at) : [];
  if (gaps.length === 0) return null;
  return (
    <div>
      <p className="lws-muted">{t('In the next 48 hours:')}</p>
      <ul className="lws-list" data-testid="on-call-gaps">
        {gaps.map((gap) => (
          <li key={gap.start} className="lws-list__item" data-testid="on-call-gap">
            {t('No cover {{start}} – {{end}}', { start: onCallTime(gap.start, at), end: onCallTime(gap.end, at) })}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One team: who is on call now and who takes over, or a warning that nobody is; then its gaps. */
function OnCallTeam({ team }: { team: RotaTeam }) {
  const t = useT();
  const titleId = useId();
  const now = useQuery({
    queryKey: onCallNowKey(team.id),
    queryFn: ({ signal }) => fetchOnCallNow(team.id, { signal }),
    refetchInterval: ON_CALL_POLL_MS,
  });
  const timeline = useQuery({
    queryKey: onCallTimelineKey(team.id),
    queryFn: ({ signal }) => {
      const from = serverNow();
      return fetchOnCallTimeline(team.id, from, new Date(from.getTime() + ON_CALL_LOOKAHEAD_MS), { signal });
    },
    refetchInterval: ON_CALL_POLL_MS,
  });
  // The rota was removed since the teams were read: the team shows nothing, as one without a rota.
  if (now.data && !now.data.hasRota) return null;

  return (
    <section className="lws-form" aria-labelledby={titleId} data-testid="on-call-team" data-team-id={team.id}>
      <h3 id={titleId} className="lws-card__title">
        {team.name}
      </h3>
      <LoadView
        load={loadOf(now)}
        loadingLabel={t('Loading who is on call for {{team}}', { team: team.name })}
        errorText={t('Who is on call for {{team}} could not be loaded.', { team: team.name })}
        testId="on-call"
        skeletonHeight="2.5rem"
      >
        {(answer) => {
          if (answer.now) {
            const values = { name: answer.now.name, time: onCallTime(answer.now.end, answer.at) };
            return (
              <>
                <p>
                  <span data-testid="on-call-now">
                    {answer.after
                      ? t('On call now: {{name}} until {{time}}, then {{next}}', { ...values, next: answer.after.name })
                      : t('On call now: {{name}} until {{time}}', values)}
                  </span>{' '}
                  <ViaBadge slot={answer.now} t={t} />
                </p>
                <Gaps timeline={timeline.data} at={answer.at} t={t} />
              </>
            );
          }
          const next = timeline.data ? nextOnCall(timeline.data, answer.at) : undefined;
          return (
            <>
              <Alert variant="warning" title={t('Nobody is on call now for {{team}}', { team: team.name })} data-testid="on-call-gap-now">
                {next ? (
                  <p data-testid="on-call-next">
                    {t('Next on call: {{name}} from {{time}}', { name: next.name, time: onCallTime(next.start, answer.at) })}
                  </p>
                ) : timeline.data ? (
                  <p data-testid="on-call-next">{t('Nobody is on call in the next 48 hours.')}</p>
                ) : null}
              </Alert>
              <Gaps timeline={timeline.data} at={answer.at} t={t} />
            </>
          );
        }}
      </LoadView>
    </section>
  );
}

/**
 * "On call now" for every team in view that has an on-call rota (an admin's teams, every team for
 * the superadmin), or only `teamId` when the dashboard is narrowed to one team: who is on call and
 * until when, who takes over, a warning while nobody is, and the gaps of the next 48 hours. Nothing
 * at all when no team in view has a rota. Read again every minute: who is on call changes with the
 * time, not with an event.
 */
export function OnCallNowCard({ teamId = 'all' }: { teamId?: number | 'all' }) {
  const t = useT();
  const query = useQuery({ queryKey: ROTA_TEAMS_KEY, queryFn: fetchRotaTeams, refetchInterval: ON_CALL_POLL_MS });
  const load = loadOf(query);
  // No card while the teams are read: most teams have no rota, and a card that then vanishes jolts the page.
  if (load.state === 'loading') return null;
  const teams = load.state === 'ready' ? load.data.filter((team) => teamId === 'all' || team.id === teamId) : [];
  if (load.state === 'ready' && teams.length === 0) return null;

  return (
    <Card data-testid="on-call-card">
      <CardHeader>
        <CardTitle>{t('On call')}</CardTitle>
        <CardDescription>{t('Who answers alarms now, by the on-call rota.')}</CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        <LoadView
          load={load}
          loadingLabel={t('Loading the on-call rotas')}
          errorText={t('The on-call rotas could not be loaded.')}
          testId="on-call-teams"
        >
          {() => teams.map((team) => <OnCallTeam key={team.id} team={team} />)}
        </LoadView>
      </CardContent>
    </Card>
  );
}
