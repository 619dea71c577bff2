import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  LoadView,
  failureMessage,
  zoneStamp,
  loadOf,
  msg,
  useT,
  useToast,
  type Translate,
} from '@lws/fe-ui';
import {
  MY_ON_CALL_KEY,
  MY_ON_CALL_POLL_MS,
  createFeed,
  fetchMyOnCall,
  revokeFeed,
  type MyOnCall,
  type MyOnCallSlot,
} from './on-call-profile-api';
import { OneTimeAddressAlert } from './OneTimeAddressAlert';

/** "Mon 7 Dec 20:00": an instant in Europe/London, in the language shown. */
export const londonStamp = (iso: string, t: Translate): string => zoneStamp(iso, 'Europe/London', t);

/** "North (Nights): Mon 7 Dec 20:00 – Tue 8 Dec 08:00 (covering)". */
export function slotLine(slot: MyOnCallSlot, t: Translate): string {
  const values = { team: slot.teamName, layer: slot.layerName, start: londonStamp(slot.start, t), end: londonStamp(slot.end, t) };
  const line = slot.layerName ? t('{{team}} ({{layer}}): {{start}} – {{end}}', values) : t('{{team}}: {{start}} – {{end}}', values);
  if (slot.via === 'override') return `${line} ${t('(covering)')}`;
  if (slot.via === 'deputy') return `${line} ${t('(as deputy)')}`;
  return line;
}

type FeedAction = 'create' | 'renew' | 'revoke';

/**
 * An admin's or the superadmin's own on-call shifts for the next 14 days, across their teams'
 * rotas, and a calendar feed of them: made (its address shown once, here), made anew (the old
 * address stops working) or stopped.
 */
export function OnCallProfileCard() {
  const t = useT();
  const { toast } = useToast();
  const client = useQueryClient();
  const query = useQuery({ queryKey: MY_ON_CALL_KEY, queryFn: fetchMyOnCall, refetchInterval: MY_ON_CALL_POLL_MS });
  const shiftsTitleId = useId();
  const feedTitleId = useId();
  // The new feed's address: kept only until Done, and never read back from the server.
  const [address, setAddress] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'renew' | 'revoke' | null>(null);
  const [busy, setBusy] = useState<FeedAction | null>(null);
  // In English (this card's words or the server's), shown through t().
  const [feedError, setFeedError] = useState<string | null>(null);

  const setHasFeed = (hasFeed: boolean) => {
    client.setQueryData<MyOnCall>(MY_ON_CALL_KEY, (old) => (old ? { ...old, hasFeed } : old));
    void client.invalidateQueries({ queryKey: MY_ON_CALL_KEY });
  };

  const makeAddress = async (action: 'create' | 'renew') => {
    setBusy(action);
    setFeedError(null);
    try {
      setAddress(await createFeed());
      setHasFeed(true);
      if (action === 'renew') toast({ title: t('New address made'), message: t('The old address no longer works.') });
    } catch (e) {
      setFeedError(failureMessage(e, msg('The calendar feed could not be made. Please try again.')));
    } finally {
      setBusy(null);
      setConfirming(null);
    }
  };

  const stopFeed = async () => {
    setBusy('revoke');
    setFeedError(null);
    try {
      await revokeFeed();
      setAddress(null);
      setHasFeed(false);
      toast({ title: t('Calendar feed stopped'), message: t('Its address no longer shows your on-call shifts.') });
    } catch (e) {
      setFeedError(failureMessage(e, msg('The calendar feed could not be stopped. Please try again.')));
    } finally {
      setBusy(null);
      setConfirming(null);
    }
  };

  const feed = (hasFeed: boolean) => {
    if (address) {
      return (
        <OneTimeAddressAlert
          title={t('Your new calendar feed address')}
          label={t('Calendar feed address')}
          note={t(
            'Add this address to your calendar app as a subscription. Anyone with it can see your on-call shifts; it is shown only now.',
          )}
          value={address}
          onDone={() => setAddress(null)}
          testId="on-call-feed-address"
        />
      );
    }
    if (hasFeed) {
      return (
        <>
          <p data-testid="on-call-feed-status">{t('You have a calendar feed.')}</p>
          <div className="lws-actions">
            <Button
              variant="outline"
              busy={busy === 'renew'}
              disabled={busy !== null}
              onClick={() => setConfirming('renew')}
              data-testid="on-call-feed-renew"
            >
              {t('New address')}
            </Button>
            <Button
              variant="destructive"
              busy={busy === 'revoke'}
              disabled={busy !== null}
              onClick={() => setConfirming('revoke')}
              data-testid="on-call-feed-revoke"
            >
              {t('Stop the feed')}
            </Button>
          </div>
        </>
      );
    }
    return (
      <>
        <p className="lws-muted">{t('See your on-call shifts in your own calendar app, kept up to date.')}</p>
        <div className="lws-actions">
          <Button
            busy={busy === 'create'}
            disabled={busy !== null}
            onClick={() => void makeAddress('create')}
            data-testid="on-call-feed-create"
          >
            {t('Subscribe in your calendar')}
          </Button>
        </div>
      </>
    );
  };

  return (
    <Card data-testid="on-call-profile-card">
      <CardHeader>
        <CardTitle>{t('On call')}</CardTitle>
        <CardDescription>{t("When you are on call on your teams' rotas, in UK time.")}</CardDescription>
      </CardHeader>
      <CardContent className="lws-form">
        <LoadView
          load={loadOf(query)}
          loadingLabel={t('Loading your on-call shifts')}
          errorText={t('Your on-call shifts could not be loaded.')}
          testId="on-call-profile"
        >
          {(data) => (
            <>
              <section aria-labelledby={shiftsTitleId}>
                <h3 id={shiftsTitleId} className="lws-card__title">
                  {t('Your on-call shifts')}
                </h3>
                {data.slots.length === 0 ? (
                  <p className="lws-muted" data-testid="on-call-profile-empty">
                    {t('You are not on call in the next 14 days.')}
                  </p>
                ) : (
                  <ul className="lws-list">
                    {data.slots.map((slot) => (
                      <li
                        key={`${slot.teamId}:${slot.layerName}:${slot.start}`}
                        className="lws-list__item"
                        data-testid="on-call-profile-slot"
                      >
                        {slotLine(slot, t)}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby={feedTitleId} className="lws-form">
                <h3 id={feedTitleId} className="lws-card__title">
                  {t('Calendar feed')}
                </h3>
                {feed(data.hasFeed)}
                {feedError ? (
                  <Alert variant="error" data-testid="on-call-feed-error">
                    {t(feedError)}
                  </Alert>
                ) : null}
              </section>
            </>
          )}
        </LoadView>
      </CardContent>
      <ConfirmDialog
        open={confirming === 'renew'}
        title={t('Make a new address?')}
        description={t('The address your calendar uses now stops working: you will need to add the new one to your calendar app.')}
        confirmLabel={t('New address')}
        busyLabel={t('Making a new address...')}
        busy={busy === 'renew'}
        onConfirm={() => void makeAddress('renew')}
        onCancel={() => setConfirming(null)}
        data-testid="on-call-feed-renew-dialog"
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        title={t('Stop the calendar feed?')}
        description={t('Its address stops working, and your calendar no longer shows your on-call shifts.')}
        confirmLabel={t('Stop the feed')}
        busyLabel={t('Stopping...')}
        busy={busy === 'revoke'}
        destructive
        onConfirm={() => void stopFeed()}
        onCancel={() => setConfirming(null)}
        data-testid="on-call-feed-revoke-dialog"
      />
    </Card>
  );
}
