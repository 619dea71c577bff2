import { useState } from 'react';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Skeleton,
  api,
  failureMessage,
  msg,
  useT,
  useToast,
} from '@lws/fe-ui';
import { ContactDialog } from './ContactDialog';
import type { EmergencyContact } from './profile-data';

export interface EmergencyContactsCardProps {
  userId: number;
  contacts: EmergencyContact[] | null;
  onChanged(): Promise<unknown>;
  /** Tells the page a contact is being edited, so its polling pauses meanwhile. */
  onEditingChange(editing: boolean): void;
}

type Editing = { contact: EmergencyContact | null } | null;

export function EmergencyContactsCard({ userId, contacts, onChanged, onEditingChange }: EmergencyContactsCardProps) {
  const { toast } = useToast();
  const t = useT();
  const [editing, setEditingState] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<EmergencyContact | null>(null);
  const [busy, setBusy] = useState(false);

  const setEditing = (next: Editing) => {
    setEditingState(next);
    onEditingChange(next !== null);
  };

  const reload = () => onChanged().catch((e: unknown) => console.error('Reloading contacts failed', e));

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/api/emergency-contacts/${deleting.id}`);
      toast({
        title: t('Emergency contact deleted'),
        message: t('{{name}} was removed from your emergency contacts.', { name: deleting.name }),
      });
      setDeleting(null);
      await reload();
    } catch (e) {
      toast({
        title: t('Delete failed'),
        message: t(failureMessage(e, msg('The contact could not be deleted. Please try again.'))),
        type: 'error',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card data-testid="profile-contacts">
      <CardHeader>
        <CardTitle>{t('Emergency Contacts')}</CardTitle>
        <CardDescription>{t('The people told when you raise an emergency.')}</CardDescription>
      </CardHeader>
      <CardContent>
        {contacts === null ? (
          <div role="status" aria-label={t('Loading contacts')}>
            <Skeleton height="3rem" />
          </div>
        ) : contacts.length === 0 ? (
          <p className="lws-muted" data-testid="contacts-empty">
            {t('No emergency contacts yet. Add at least one person who should be told if you need help.')}
          </p>
        ) : (
          <ul className="lws-list" data-testid="contacts-list">
            {contacts.map((c) => (
              <li key={c.id} className="lws-list__item" data-testid="contact-item">
                <div>
                  <p>
                    <strong data-testid="contact-item-name">{c.name}</strong>
                    {c.relation ? <span className="lws-muted"> ({c.relation})</span> : null}
                  </p>
                  <p className="lws-muted" data-testid="contact-item-phone">
                    {c.phone}
                  </p>
                </div>
                <div className="lws-actions">
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => setEditing({ contact: c })}
                    aria-label={t('Edit {{name}}', { name: c.name })}
                    data-testid="contact-edit"
                  >
                    {t('Edit')}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setDeleting(c)}
                    aria-label={t('Delete {{name}}', { name: c.name })}
                    data-testid="contact-delete"
                  >
                    {t('Delete')}
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="lws-actions lws-actions--spaced">
          <Button onClick={() => setEditing({ contact: null })} data-testid="contact-add">
            {t('Add Contact')}
          </Button>
        </div>
      </CardContent>
      {editing ? (
        <ContactDialog
          userId={userId}
          contact={editing.contact}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t('Delete emergency contact?')}
        description={deleting ? t('{{name}} will no longer be told if you raise an emergency.', { name: deleting.name }) : ''}
        confirmLabel={t('Delete')}
        busyLabel={t('Deleting...')}
        destructive
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
        data-testid="contact-delete-dialog"
      />
    </Card>
  );
}
