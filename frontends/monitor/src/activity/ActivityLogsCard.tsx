import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  Alert,
  ApiError,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  LiveStatusBadge,
  Select,
  Skeleton,
  api,
  formatDateTime,
  useLiveEvents,
  useT,
  useLiveQuery,
  useStreaming,
  useMinimumBusy,
  type ActivityEvent,
  type LiveSource,
} from '@lws/fe-ui';
import { fetchTeamNames, parseAccounts, type Account } from '../accounts/accounts-api';
import { activityLabel, activityVariant, fetchActivityPage, mergeEntries, type ActivityPage } from './activity-api';

/** Spec section 9: the activity log is read every 2 s, only while live updates are down. */
export const ACTIVITY_POLL_MS = 2000;
const REFRESH_SPINNER_MS = 500;

/** Why the log could not be read; a message of the client's own (a reply it cannot read) is translated. */
function loadFailureText(error: unknown, t: ReturnType<typeof useT>): string {
  if (error instanceof ApiError) return t('Failed to fetch activity logs: {{status}}', { status: error.status });
  return error instanceof Error ? t(error.message) : String(error);
}

const byName = (a: Account, b: Account) => a.name.localeCompare(b.name);

/** The log's pages for one filter (null: every worker). */
const activityKey = (userId: number | null) => ['activity', userId] as const;
type ActivityPages = InfiniteData<ActivityPage, string | null>;

/** `entry` put at the top of a filter's first page, unless the filter leaves it out. */
export function withNewEntry(pages: ActivityPages | undefined, filter: number | null, entry: ActivityEvent): ActivityPages | undefined {
  if (!pages || pages.pages.length === 0 || (filter !== null && entry.userId !== filter)) return pages;
  const [first, ...rest] = pages.pages;
  return { ...pages, pages: [{ ...first, entries: mergeEntries(first.entries, [entry]) }, ...rest] };
}

const deletedAccounts: LiveSource = { types: ['account'], when: (e) => e.type === 'account' && e.data.change === 'deleted' };

/** The worker filter's choices and, with several teams in view, each worker's team name. */
function useWorkerNames() {
  const { data } = useLiveQuery({
    queryKey: ['accounts', 'workers', 'with-teams'],
    queryFn: async () => {
      const [list, teams] = await Promise.all([api.get('/api/worker-accounts'), fetchTeamNames().catch(() => [])]);
      return { accounts: parseAccounts(list).sort(byName), teamNames: new Map(teams.map((t) => [t.id, t.name])) };
    },
    live: { types: ['account'] },
    pollMs: null,
  });
  // Without it the filter offers only "All workers"; the log itself still shows.
  return data ?? { accounts: [] as Account[], teamNames: new Map<number, string>() };
}

/**
 * The Activity Logs tab (spec section 2): a 400px list, newest first, optionally for one worker.
 * New entries arrive from the event stream and appear at the top; the spec's 2-second poll is only
 * the fallback while the stream is down. The label comes from the type, by the spec's table.
 */
export function ActivityLogsCard() {
  const client = useQueryClient();
  const t = useT();
  const [userId, setUserId] = useState<number | null>(null);
  const { accounts, teamNames } = useWorkerNames();
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  const filterId = useId();
  const streaming = useStreaming();

  const log = useInfiniteQuery({
    queryKey: activityKey(userId),
    queryFn: ({ pageParam, signal }) => fetchActivityPage({ userId, cursor: pageParam, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // A deleted user's entries go with them; after a gap in the stream the log is read afresh.
    meta: { live: deletedAccounts },
    refetchInterval: streaming ? false : ACTIVITY_POLL_MS,
  });
  // A new entry goes on top of every filter's list it belongs in, without a fetch.
  useLiveEvents(
    ['activity'],
    (event) => {
      if (event.type !== 'activity') return;
      for (const [key] of client.getQueriesData<ActivityPages>({ queryKey: ['activity'] })) {
        const filter = (key[1] ?? null) as number | null;
        client.setQueryData<ActivityPages>(key, (pages) => withNewEntry(pages, filter, event.data));
      }
    },
    () => undefined,
  );

  // With several teams in view, each entry about a worker names their team.
  const teamOfWorker = new Map(accounts.flatMap((a) => (a.teamId !== undefined ? [[a.id, a.teamId] as const] : [])));
  const teamOf = (id: number) => {
    const teamId = teamOfWorker.get(id);
    return teamId === undefined ? undefined : teamNames.get(teamId);
  };

  const load = log.data
    ? {
        state: 'ready' as const,
        entries: mergeEntries(
          [],
          log.data.pages.flatMap((p) => p.entries),
        ),
        more: log.hasNextPage,
      }
    : log.error
      ? { state: 'error' as const, message: loadFailureText(log.error, t) }
      : { state: 'loading' as const };
  const loadingMore = log.isFetchingNextPage;
  const loadMore = () => {
    if (!loadingMore) void log.fetchNextPage();
  };
  const reload = () => log.refetch();

  return (
    <Card data-testid="activity-logs">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>
            {t('Activity Logs')} <LiveStatusBadge />
          </CardTitle>
          <CardDescription>{t('Shifts, check-ins, alarms, calls and messages, newest first.')}</CardDescription>
        </div>
        <Button variant="outline" size="sm" busy={refreshing} onClick={() => void runRefresh(reload)} data-testid="activity-refresh">
          {t('Refresh')}
        </Button>
      </CardHeader>
      <CardContent className="lws-activity">
        <div className="lws-field lws-activity__filter">
          <Label htmlFor={filterId}>{t('Worker')}</Label>
          <Select
            id={filterId}
            value={userId === null ? '' : String(userId)}
            onChange={(event) => setUserId(event.target.value ? Number(event.target.value) : null)}
            data-testid="activity-filter"
          >
            <option value="">{t('All workers')}</option>
            {accounts.map((a) => (
              <option key={a.id} value={String(a.id)}>
                {a.name} ({a.username})
              </option>
            ))}
          </Select>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls: a keyboard must reach it to scroll it (axe: scrollable-region-focusable). */}
        <div className="lws-activity__list" data-testid="activity-list" role="log" aria-label={t('Activity log entries')} tabIndex={0}>
          {load.state === 'loading' ? (
            <div role="status" aria-label={t('Loading activity logs')}>
              <Skeleton height="2.5rem" />
            </div>
          ) : load.state === 'error' ? (
            <Alert variant="error" title={t('Error loading activity logs')} data-testid="activity-error">
              <p>{load.message}</p>
            </Alert>
          ) : load.entries.length === 0 ? (
            <p className="lws-muted" data-testid="activity-empty">
              {t('No activity logs available')}
            </p>
          ) : (
            <>
              <ol className="lws-activity__entries">
                {load.entries.map((entry) => (
                  <li
                    key={entry.id}
                    className="lws-activity__entry"
                    data-testid="activity-entry"
                    data-entry-id={entry.id}
                    data-user-id={entry.userId ?? undefined}
                    data-type={entry.type}
                  >
                    <div className="lws-activity__head">
                      <Badge variant={activityVariant(entry.type)} data-testid="activity-label">
                        {t(activityLabel(entry.type))}
                      </Badge>
                      <strong data-testid="activity-username">{entry.username}</strong>
                      {teamNames.size > 1 && entry.userId !== null && teamOf(entry.userId) ? (
                        <span className="lws-muted" data-testid="activity-team">
                          {teamOf(entry.userId)}
                        </span>
                      ) : null}
                      <time className="lws-muted lws-activity__time" dateTime={entry.timestamp} data-testid="activity-time">
                        {formatDateTime(entry.timestamp, t('Unknown time'))}
                      </time>
                    </div>
                    {entry.details ? <p data-testid="activity-details">{entry.details}</p> : null}
                    {entry.location ? (
                      <p className="lws-muted" data-testid="activity-location">
                        {entry.location}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ol>
              {load.more ? (
                <div className="lws-activity__more">
                  <Button variant="outline" size="sm" busy={loadingMore} onClick={loadMore} data-testid="activity-load-more">
                    {t('Load more')}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
