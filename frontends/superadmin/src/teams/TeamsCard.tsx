import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Input,
  Label,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  failureMessage,
  loadOf,
  msg,
  useLiveQuery,
  useT,
  useToast,
  LoadView,
} from '@lws/fe-ui';
import { parseLocationOptions } from '@lws/fe-ui/locations';
import { parsePeople, parseTeams, TEAMS_WITH_MEMBERS_KEY, type Person, type Team } from './teams-api';
import { TeamEditor } from './TeamEditor';

interface Loaded {
  teams: Team[];
  admins: Person[];
  workers: Person[];
  locations: { id: number; name: string }[];
}

/**
 * The Teams tab: every team with its workers, monitors and locations; create, edit
 * (monitors and deputies, check-in policy, escalation policy with a timeline preview, on-call rota, members) and
 * delete an empty one.
 */
export function TeamsCard() {
  const { toast } = useToast();
  const t = useT();
  const [newName, setNewName] = useState('');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);

  const client = useQueryClient();
  // The teams with the people and places a team is made of; any account change may move them.
  const query = useLiveQuery({
    queryKey: TEAMS_WITH_MEMBERS_KEY,
    queryFn: async ({ signal }): Promise<Loaded> => {
      const [teams, accounts, workers, locations] = await Promise.all([
        api.get('/api/teams', { signal }),
        api.get('/api/worker-accounts', { signal }),
        api.get('/api/data/workers', { signal }),
        api.get('/api/location-options', { signal }),
      ]);
      return {
        teams: parseTeams(teams),
        admins: parsePeople(accounts).filter((p) => p.role === 'admin'),
        workers: parsePeople(workers),
        locations: parseLocationOptions(locations),
      };
    },
    live: { types: ['account'] },
    pollMs: null,
  });
  const load = loadOf(query);
  // A team's change shows in every list of teams (the report's filter, the accounts' team names).
  const reload = () => client.invalidateQueries({ queryKey: ['teams'] });

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!newName.trim()) return;
    setCreating(true);
    try {
      const team = (await api.post('/api/teams', { name: newName.trim() })) as Team;
      toast({ title: t('Team created'), message: t('{{name}} is ready: add its monitors, locations and workers', { name: team.name }) });
      setNewName('');
      setEditing(team.id);
      await reload();
    } catch (e) {
      toast({ title: t('Create failed'), message: t(failureMessage(e, msg('The team could not be created.'))), type: 'error' });
    } finally {
      setCreating(false);
    }
  };

  const remove = async (team: Team) => {
    setDeleteBusy(true);
    try {
      await api.delete(`/api/teams/${team.id}`);
      toast({ title: t('Team deleted'), message: t('{{name}} is deleted', { name: team.name }) });
      if (editing === team.id) setEditing(null);
      await reload();
    } catch (e) {
      toast({ title: t('Delete failed'), message: t(failureMessage(e, msg('The team could not be deleted.'))), type: 'error' });
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
  };

  const data = load.state === 'ready' ? load.data : undefined;
  const nameOf = (id: number) => data?.admins.find((a) => a.id === id)?.name ?? `#${id}`;
  const placeOf = (id: number) => data?.locations.find((l) => l.id === id)?.name ?? `#${id}`;
  const current = data?.teams.find((team) => team.id === editing);

  return (
    <Card data-testid="teams">
      <CardHeader>
        <CardTitle>{t('Teams')}</CardTitle>
        <CardDescription>
          {t("Each worker belongs to one team. Its monitors see and answer its workers' alarms, in the order and by the policy set here.")}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="lws-inline-form" onSubmit={(e) => void create(e)}>
          <Label htmlFor="new-team-name" className="lws-visually-hidden">
            {t('New team name')}
          </Label>
          <Input
            id="new-team-name"
            placeholder={t('New team name')}
            maxLength={100}
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            data-testid="new-team-name"
          />
          <Button type="submit" busy={creating} disabled={!newName.trim()} data-testid="create-team">
            {t('Create team')}
          </Button>
        </form>
        <LoadView load={load} loadingLabel={t('Loading teams')} errorText={t('Error loading teams.')} testId="teams">
          {(data) => (
            <Table label={t('Teams')} data-testid="teams-table">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Team')}</TableHead>
                  <TableHead>{t('Workers')}</TableHead>
                  <TableHead>{t('Monitors')}</TableHead>
                  <TableHead>{t('Locations')}</TableHead>
                  <TableHead>{t('Policy')}</TableHead>
                  <TableHead>{t('Action')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.teams.map((team) => (
                  <TableRow key={team.id} data-testid="team-row" data-name={team.name}>
                    <TableCell>{team.name}</TableCell>
                    <TableCell>{team.memberCount}</TableCell>
                    <TableCell>
                      {team.monitors.length === 0
                        ? t('None: every admin is told')
                        : team.monitors
                            .map((m) =>
                              m.deputyUserId
                                ? t('{{name}} (deputy {{deputy}})', { name: nameOf(m.userId), deputy: nameOf(m.deputyUserId) })
                                : nameOf(m.userId),
                            )
                            .join(', ')}
                    </TableCell>
                    <TableCell>{team.locationIds.map(placeOf).join(', ') || t('Any')}</TableCell>
                    <TableCell>
                      <Badge variant={team.escalationPolicy ? 'info' : 'neutral'}>
                        {team.escalationPolicy ? t('Own') : t("Organisation's")}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      <div className="lws-actions">
                        <Button
                          size="sm"
                          variant={editing === team.id ? 'primary' : 'outline'}
                          onClick={() => setEditing(editing === team.id ? null : team.id)}
                          data-testid="team-edit"
                        >
                          {editing === team.id ? t('Close') : t('Edit')}
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setDeleting(team)} data-testid="team-delete">
                          {t('Delete')}
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </LoadView>
        {current && data ? (
          <TeamEditor
            key={`${current.id}-${current.version}`}
            team={current}
            admins={data.admins}
            workers={data.workers}
            locations={data.locations}
            onSaved={() => void reload()}
          />
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        title={t('Delete this team?')}
        description={
          deleting ? t('{{name}} will be deleted. A team with workers cannot be: move them first.', { name: deleting.name }) : ''
        }
        confirmLabel={t('Delete')}
        busyLabel={t('Deleting...')}
        busy={deleteBusy}
        destructive
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
        data-testid="team-delete-dialog"
      />
    </Card>
  );
}
