import { useCallback, useEffect, useId, useRef, useState } from 'react';
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
  useCoalescedReload,
  useLiveEvents,
  useMinimumBusy,
  usePollWhileDown,
} from '@lws/fe-ui';
import { fetchTeamNames, parseAccounts, type Account } from '../accounts/accounts-api';
import { activityLabel, activityVariant, fetchActivityPage, mergeEntries, type ActivityEntry } from './activity-api';

/** Spec section 9: the activity log is read every 2 s, only while live updates are down. */
export const ACTIVITY_POLL_MS = 2000;
const REFRESH_SPINNER_MS = 500;

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'ready'; entries: ActivityEntry[]; nextCursor: string | null };

function loadFailureText(error: unknown): string {
  if (error instanceof ApiError) return `Failed to fetch activity logs: ${error.status}`;
  return error instanceof Error ? error.message : String(error);
}

const byName = (a: Account, b: Account) => a.name.localeCompare(b.name);

/**
 * The Activity Logs tab (spec section 2): a 400px list, newest first, optionally for one worker.
 * New entries arrive from the event stream and appear at the top; the spec's 2-second poll is only
 * the fallback while the stream is down. The label comes from the type, by the spec's table.
 */
export function ActivityLogsCard() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [userId, setUserId] = useState<number | null>(null);
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [teamNames, setTeamNames] = useState<Map<number, string>>(new Map());
  const [loadingMore, setLoadingMore] = useState(false);
  const [refreshing, runRefresh] = useMinimumBusy(REFRESH_SPINNER_MS);
  const filterId = useId();
  // Bumped by every full load, so a slower answer for an older filter never lands on screen.
  const generation = useRef(0);
  const filter = useRef(userId);
  filter.current = userId;

  /** The first page; `replace` drops what is on screen (a refresh), otherwise new entries are merged in. */
  const reload = useCallback(async (replace: boolean) => {
    const ticket = ++generation.current;
    const forUser = filter.current;
    try {
      const page = await fetchActivityPage({ userId: forUser });
      if (ticket !== generation.current) return;
      setLoad((current) =>
        replace || current.state !== 'ready'
          ? { state: 'ready', entries: page.entries, nextCursor: page.nextCursor }
          : { state: 'ready', entries: mergeEntries(current.entries, page.entries), nextCursor: current.nextCursor },
      );
    } catch (e) {
      console.error('Loading the activity log failed', e);
      if (ticket === generation.current) {
        setLoad((current) => (current.state === 'ready' ? current : { state: 'error', message: loadFailureText(e) }));
      }
    }
  }, []);

  const reloadAccounts = useCallback(async () => {
    try {
      const [list, teams] = await Promise.all([api.get('/api/worker-accounts'), fetchTeamNames().catch(() => [])]);
      setAccounts(parseAccounts(list).sort(byName));
      setTeamNames(new Map(teams.map((t) => [t.id, t.name])));
    } catch (e) {
      // The filter then offers only "All workers"; the log itself still shows.
      console.error('Loading the worker list failed', e);
    }
  }, []);

  useEffect(() => {
    setLoad({ state: 'loading' });
    void reload(true);
  }, [userId, reload]);
  useEffect(() => {
    void reloadAccounts();
  }, [reloadAccounts]);

  // With several teams in view, each entry about a worker names their team.
  const teamOfWorker = new Map(accounts.flatMap((a) => (a.teamId !== undefined ? [[a.id, a.teamId] as const] : [])));
  const teamOf = (id: number) => {
    const teamId = teamOfWorker.get(id);
    return teamId === undefined ? undefined : teamNames.get(teamId);
  };

  const refetch = useCoalescedReload(() => reload(true));
  const refetchAccounts = useCoalescedReload(reloadAccounts);
  const pollNewest = useCoalescedReload(() => reload(false));
  useLiveEvents(
    ['activity', 'account'],
    (event) => {
      if (event.type === 'activity') {
        const entry = event.data;
        if (filter.current !== null && entry.userId !== filter.current) return;
        setLoad((current) => (current.state === 'ready' ? { ...current, entries: mergeEntries(current.entries, [entry]) } : current));
      } else if (event.type === 'account') {
        refetchAccounts();
        // A deleted user's entries go with them.
        if (event.data.change === 'deleted') refetch();
      }
    },
    () => {
      refetch();
      refetchAccounts();
    },
  );
  usePollWhileDown(pollNewest, ACTIVITY_POLL_MS);

  const loadMore = async () => {
    if (load.state !== 'ready' || !load.nextCursor || loadingMore) return;
    const ticket = generation.current;
    setLoadingMore(true);
    try {
      const page = await fetchActivityPage({ userId: filter.current, cursor: load.nextCursor });
      if (ticket === generation.current) {
        setLoad((current) =>
          current.state === 'ready' ? { state: 'ready', entries: mergeEntries(current.entries, page.entries), nextCursor: page.nextCursor } : current,
        );
      }
    } catch (e) {
      console.error('Loading older activity failed', e);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Card data-testid="activity-logs">
      <CardHeader className="lws-card__header--row">
        <div>
          <CardTitle>
            Activity Logs <LiveStatusBadge />
          </CardTitle>
          <CardDescription>Shifts, check-ins, alarms, calls and messages, newest first.</CardDescription>
        </div>
        <Button variant="outline" size="sm" busy={refreshing} onClick={() => void runRefresh(() => reload(true))} data-testid="activity-refresh">
          Refresh
        </Button>
      </CardHeader>
      <CardContent className="lws-activity">
        <div className="lws-field lws-activity__filter">
          <Label htmlFor={filterId}>Worker</Label>
          <Select
            id={filterId}
            value={userId === null ? '' : String(userId)}
            onChange={(event) => setUserId(event.target.value ? Number(event.target.value) : null)}
            data-testid="activity-filter"
          >
            <option value="">All workers</option>
            {accounts.map((a) => (
              <option key={a.id} value={String(a.id)}>
                {a.name} ({a.username})
              </option>
            ))}
          </Select>
        </div>
        <div className="lws-activity__list" data-testid="activity-list" role="log" aria-label="Activity log entries" tabIndex={0}>
          {load.state === 'loading' ? (
            <div role="status" aria-label="Loading activity logs">
              <Skeleton height="2.5rem" />
            </div>
          ) : load.state === 'error' ? (
            <Alert variant="error" title="Error loading activity logs" data-testid="activity-error">
              <p>{load.message}</p>
            </Alert>
          ) : load.entries.length === 0 ? (
            <p className="lws-muted" data-testid="activity-empty">
              No activity logs available
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
                        {activityLabel(entry.type)}
                      </Badge>
                      <strong data-testid="activity-username">{entry.username}</strong>
                      {teamNames.size > 1 && entry.userId !== null && teamOf(entry.userId) ? (
                        <span className="lws-muted" data-testid="activity-team">
                          {teamOf(entry.userId)}
                        </span>
                      ) : null}
                      <time className="lws-muted lws-activity__time" dateTime={entry.timestamp} data-testid="activity-time">
                        {formatDateTime(entry.timestamp, 'Unknown time')}
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
              {load.nextCursor ? (
                <div className="lws-activity__more">
                  <Button variant="outline" size="sm" busy={loadingMore} onClick={() => void loadMore()} data-testid="activity-load-more">
                    Load more
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
