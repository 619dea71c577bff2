import { useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type KeyboardEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Alert,
  ApiError,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Input,
  Label,
  PageStatus,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  api,
  loadOf,
  msg,
  useT,
  useToast,
  type Translate,
} from '@lws/fe-ui';
import { parseLocationOptions, type LocationOption } from '@lws/fe-ui/locations';
import { addLocationSchema, LOCATION_NAME_MAX, type AddLocationForm } from '@lws/schemas';

export { LOCATION_NAME_MAX };

type Action = 'create' | 'update' | 'delete';

const SUCCESS: Record<Action, string> = {
  create: msg('Location created successfully'),
  update: msg('Location updated successfully'),
  delete: msg('Location deleted successfully'),
};

const FAILURE: Record<Action, string> = {
  create: msg('Failed to create location. Please try again.'),
  update: msg('Failed to update location. Please try again.'),
  delete: msg('Failed to delete location. Please try again.'),
};

/**
 * Spec section 8's toast texts; when the server refused the input itself (a duplicate name, a
 * location someone else just deleted) its reason is more use to the admin than "try again".
 */
function failureText(action: Action, error: unknown, t: Translate): string {
  if (error instanceof ApiError && [400, 404, 409].includes(error.status) && error.serverMessage) return t(error.serverMessage);
  return t(FAILURE[action]);
}

/**
 * The Locations tab: 'Location Management' with an add row and a table of every location.
 * Active locations are the ones workers can pick when they start a shift. A location the caller may
 * not change (the organisation's, or another team's, for an admin) is listed without its actions;
 * the server refuses them anyway.
 */
export function LocationsCard() {
  const { toast } = useToast();
  const t = useT();
  // Add is offered once the gateway's own schema would take the name.
  const addForm = useForm<AddLocationForm, unknown, z.output<typeof addLocationSchema>>({
    resolver: zodResolver(addLocationSchema),
    mode: 'onChange',
    defaultValues: { name: '' },
  });
  const [editing, setEditing] = useState<{ id: number; name: string } | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<LocationOption | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const addId = useId();
  const client = useQueryClient();
  // Every location, active or not; the worker screen's list of active ones shares the key's start,
  // so a change made here is read afresh there too.
  const query = useQuery({
    queryKey: ['location-options', 'all'],
    queryFn: async ({ signal }) => parseLocationOptions(await api.get('/api/location-options', { signal })),
  });
  const load = loadOf(query);
  const reload = () => client.invalidateQueries({ queryKey: ['location-options'] });

  const succeeded = (action: Action) => toast({ title: t('Success'), message: t(SUCCESS[action]) });
  const failed = (action: Action, e: unknown) => {
    console.error(`Location ${action} failed`, e);
    toast({ title: t('Error'), message: failureText(action, e, t), type: 'error' });
  };

  const onAdd = addForm.handleSubmit(async ({ name }) => {
    try {
      await api.post('/api/location-options', { name, isActive: true });
      addForm.reset({ name: '' });
      succeeded('create');
    } catch (e) {
      failed('create', e);
    }
    await reload();
  });

  const update = async (location: LocationOption, changes: { name: string } | { isActive: boolean }) => {
    setPending(location.id);
    try {
      await api.patch(`/api/location-options/${location.id}`, changes);
      succeeded('update');
      return true;
    } catch (e) {
      failed('update', e);
      return false;
    } finally {
      setPending(null);
      await reload();
    }
  };

  const confirmEdit = async (location: LocationOption) => {
    const name = editing?.name.trim() ?? '';
    if (!name || pending !== null) return;
    if (name === location.name) {
      setEditing(null);
      return;
    }
    if (await update(location, { name })) setEditing(null);
  };

  const onEditKey = (event: KeyboardEvent<HTMLInputElement>, location: LocationOption) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void confirmEdit(location);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setEditing(null);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await api.delete(`/api/location-options/${deleting.id}`);
      succeeded('delete');
    } catch (e) {
      failed('delete', e);
    } finally {
      setDeleteBusy(false);
      setDeleting(null);
    }
    await reload();
  };

  return (
    <Card data-testid="locations-card">
      <CardHeader>
        <CardTitle>{t('Location Management')}</CardTitle>
        <CardDescription>{t('Add, rename, deactivate or remove the locations workers start their shifts at.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="lws-inline-form"
          noValidate
          onSubmit={(event) => void onAdd(event)}
          aria-label={t('Add a location')}
          data-testid="location-add-form"
        >
          <Label htmlFor={addId} className="lws-visually-hidden">
            {t('New location name')}
          </Label>
          <Input
            {...addForm.register('name')}
            id={addId}
            maxLength={LOCATION_NAME_MAX}
            placeholder={t('Enter new location name')}
            data-testid="location-new-name"
          />
          <Button type="submit" disabled={!addForm.formState.isValid} busy={addForm.formState.isSubmitting} data-testid="location-add">
            {t('Add')}
          </Button>
        </form>
        {load.state === 'loading' ? (
          <PageStatus text={t('Loading locations...')} testId="locations-loading" />
        ) : load.state === 'error' ? (
          <Alert variant="error" data-testid="locations-error">
            {t('Error loading locations')}
          </Alert>
        ) : load.data.length === 0 ? (
          <p className="lws-muted" data-testid="locations-empty">
            {t('No locations available. Add your first location above.')}
          </p>
        ) : (
          <Table className="lws-table--middle" label={t('Locations')} data-testid="locations-table">
            <TableHeader>
              <TableRow>
                <TableHead>{t('Name')}</TableHead>
                <TableHead>{t('Status')}</TableHead>
                <TableHead>{t('Actions')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {load.data.map((location) => {
                const isEditing = editing?.id === location.id;
                const busy = pending === location.id;
                const mayChange = location.canChange !== false;
                return (
                  <TableRow key={location.id} data-testid="location-row" data-location-name={location.name}>
                    <TableCell>
                      {isEditing ? (
                        <div className="lws-inline-form">
                          <Input
                            value={editing.name}
                            maxLength={LOCATION_NAME_MAX}
                            autoFocus
                            aria-label={t('New name for {{name}}', { name: location.name })}
                            invalid={!editing.name.trim()}
                            onChange={(e) => setEditing({ id: location.id, name: e.target.value })}
                            onKeyDown={(e) => onEditKey(e, location)}
                            data-testid="location-edit-name"
                          />
                          <Button
                            size="sm"
                            disabled={!editing.name.trim()}
                            busy={busy}
                            onClick={() => void confirmEdit(location)}
                            aria-label={t('Save name')}
                            data-testid="location-edit-confirm"
                          >
                            {t('Save')}
                          </Button>
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={busy}
                            onClick={() => setEditing(null)}
                            aria-label={t('Cancel editing')}
                            data-testid="location-edit-cancel"
                          >
                            {t('Cancel')}
                          </Button>
                        </div>
                      ) : (
                        <span data-testid="location-name">{location.name}</span>
                      )}
                    </TableCell>
                    <TableCell>
                      <Switch
                        label={location.isActive ? t('Active') : t('Inactive')}
                        checked={location.isActive}
                        disabled={busy || !mayChange}
                        onChange={() => void update(location, { isActive: !location.isActive })}
                        aria-label={t('{{name}} active', { name: location.name })}
                        data-testid="location-toggle"
                      />
                    </TableCell>
                    <TableCell>
                      {mayChange ? (
                        <div className="lws-actions">
                          <Button
                            size="sm"
                            variant="outline"
                            disabled={isEditing || busy}
                            onClick={() => setEditing({ id: location.id, name: location.name })}
                            aria-label={t('Edit {{name}}', { name: location.name })}
                            data-testid="location-edit"
                          >
                            {t('Edit')}
                          </Button>
                          <Button
                            size="sm"
                            variant="destructive"
                            disabled={busy}
                            onClick={() => setDeleting(location)}
                            aria-label={t('Delete {{name}}', { name: location.name })}
                            data-testid="location-delete"
                          >
                            {t('Delete')}
                          </Button>
                        </div>
                      ) : (
                        <span className="lws-muted" data-testid="location-superadmin-only">
                          {t('Changed by the superadmin')}
                        </span>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <CardFooter>
        <p className="lws-muted" data-testid="locations-note">
          {t('Active locations appear in the location dropdown workers choose from when they start a shift.')}
        </p>
      </CardFooter>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t('Delete {{name}}', { name: deleting.name }) : t('Delete Location')}
        description={t('Are you sure you want to delete this location?')}
        confirmLabel={t('Delete')}
        busyLabel={t('Deleting...')}
        destructive
        busy={deleteBusy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        data-testid="location-delete-dialog"
      />
    </Card>
  );
}
