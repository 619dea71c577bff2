import { useId, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Input,
  Label,
  Select,
  Skeleton,
  formatDateTime,
  msg,
  useT,
} from '@lws/fe-ui';
import type { ShiftState } from '@lws/fe-ui/shifts';
import { defaultLocationChoice } from '@lws/rules';
import type { LocationsLoad } from '../locations/useLocationOptions';
import { intervalText } from './interval-text';

export type ShiftBusy = 'starting' | 'ending' | null;

const BUSY_TEXT: Record<string, string | undefined> = { starting: msg('Starting Shift...'), ending: msg('Ending Shift...') };

export interface ShiftStatusCardProps {
  shift: ShiftState;
  locations: LocationsLoad;
  /** Signed in at a kiosk: the kiosk's location comes first. */
  kioskLocation?: string;
  busy: ShiftBusy;
  /** The worker's check-in interval in minutes: the texts follow it. */
  intervalMinutes: number;
  /** `note`: "where I'll be", trimmed; empty when none. */
  onStart(location: string, note: string): void;
  /** Why the last start was refused, in the server's words (e.g. nobody on call for the team); null when none. */
  startError?: string | null;
  /** On shift: the note the shift started with. */
  shiftNote: string | null;
  onEnd(): void;
}

/** 'Shift Status': where and since when the worker is on shift, or where to start one. */
export function ShiftStatusCard({
  shift,
  locations,
  kioskLocation,
  busy,
  intervalMinutes,
  onStart,
  startError = null,
  onEnd,
  shiftNote,
}: ShiftStatusCardProps) {
  const t = useT();
  const selectId = useId();
  const noteId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const active = locations.state === 'ready' ? locations.active : [];
  // Until the worker picks one: at a kiosk, the kiosk's location if active; otherwise the spec's
  // default: their own location if active, else 'The Prospect Building' if active, else the first.
  const atKiosk = kioskLocation && active.some((l) => l.name === kioskLocation) ? kioskLocation : undefined;
  const busyText = BUSY_TEXT[busy ?? 'idle'];
  const selected =
    chosen !== null && active.some((l) => l.name === chosen) ? chosen : (atKiosk ?? defaultLocationChoice(shift.location, active) ?? '');

  return (
    <Card data-testid="shift-status-card">
      <CardHeader className="lws-card__header--row">
        <CardTitle>{t('Shift Status')}</CardTitle>
        <Badge variant={shift.onShift ? 'success' : 'neutral'} data-testid="shift-badge">
          {shift.onShift ? t('On Shift') : t('Off Duty')}
        </Badge>
      </CardHeader>
      <CardContent>
        {shift.onShift ? (
          <>
            <dl className="lws-info-list">
              <dt>{t('Location')}</dt>
              <dd data-testid="shift-location">{shift.location ?? t('Unknown location')}</dd>
              <dt>{t('Shift started')}</dt>
              <dd data-testid="shift-start-time">{formatDateTime(shift.shiftStartTime, t('Just now'))}</dd>
              <dt>{t('Last check-in')}</dt>
              <dd data-testid="shift-last-check-in">{formatDateTime(shift.latestCheckIn?.timestamp, t('Never'))}</dd>
              {shiftNote ? (
                <>
                  <dt>{t("Where you'll be")}</dt>
                  <dd data-testid="shift-note">{shiftNote}</dd>
                </>
              ) : null}
            </dl>
            <div className="lws-actions lws-actions--spaced">
              {/* Right after Start Shift the card already shows the shift (optimistically) while the server confirms it. */}
              {/* Secondary: ending a shift is never the screen's loudest action (the emergency is). */}
              <Button variant="outline" block busy={busy !== null} onClick={onEnd} data-testid="end-shift">
                {busyText ? t(busyText) : t('End Shift')}
              </Button>
            </div>
          </>
        ) : (
          <form
            className="lws-form"
            noValidate
            aria-label={t('Start Shift')}
            onSubmit={(event) => {
              event.preventDefault();
              onStart(selected, note.trim());
            }}
          >
            <div className="lws-field">
              <Label htmlFor={selectId}>{t('Your current location')}</Label>
              {locations.state === 'loading' ? (
                <div role="status" aria-label={t('Loading locations')}>
                  <Skeleton height="2.5rem" />
                </div>
              ) : (
                <Select
                  id={selectId}
                  value={active.length === 0 ? '' : selected}
                  disabled={active.length === 0 || busy !== null}
                  onChange={(event) => setChosen(event.target.value)}
                  data-testid="location-select"
                >
                  {active.length === 0 ? (
                    <option value="">
                      {locations.state === 'error' ? t('Locations could not be loaded') : t('No active locations available')}
                    </option>
                  ) : (
                    <>
                      <option value="" disabled>
                        {t('Select a location')}
                      </option>
                      {active.map((l) => (
                        <option key={l.id} value={l.name}>
                          {l.name}
                        </option>
                      ))}
                    </>
                  )}
                </Select>
              )}
            </div>
            <div className="lws-field">
              <Label htmlFor={noteId}>{t("Where you'll be (optional)")}</Label>
              <Input
                id={noteId}
                value={note}
                maxLength={200}
                placeholder={t('e.g. 12 Oak Street, back by 15:00')}
                onChange={(e) => setNote(e.target.value)}
                data-testid="shift-note-input"
              />
            </div>
            <p className="lws-muted" data-testid="check-in-note">
              {t('You are required to check-in every {{interval}} for safety monitoring.', { interval: intervalText(t, intervalMinutes) })}
            </p>
            {startError ? (
              <Alert variant="error" title={t('Failed to Start Shift')} data-testid="start-shift-error">
                <p>{t(startError)}</p>
              </Alert>
            ) : null}
            <Button type="submit" block busy={busy !== null} data-testid="start-shift">
              {busyText ? t(busyText) : t('Start Shift')}
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
