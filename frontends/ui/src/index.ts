export { api, apiRequest, apiResponse, apiText, ApiError, failureField, failureMessage, messageOf, UNAUTHORIZED_EVENT } from './api/api';
export type { HttpMethod, RequestOptions } from './api/api';

export { AuthProvider, AuthError, useAuth, INVALID_SERVER_RESPONSE, KIOSK_IDLE_MS } from './auth/AuthContext';
export type { AuthContextValue, KioskWho, LoginInput, LogoutOptions, PinLoginResult } from './auth/AuthContext';
// The shell's router, for a remote to navigate with: react-router itself is bundled by the shell
// alone (it is not a shared module), so a remote must not import it.
export { useNavigate } from 'react-router';
export { ROLES, isRole, parseUser, roleHome, roleLabel } from './auth/user';
export { dropHint, hasHint, KIOSK_HINT, SIGNED_IN_HINT } from './auth/hints';
export type { Role, User } from './auth/user';

export {
  deviceLanguage,
  english,
  i18n,
  isLanguage,
  LANGUAGES,
  languageName,
  msg,
  setLanguage,
  SOURCE_LANGUAGE,
  useLanguage,
  useT,
} from './i18n/i18n';
export type { Translate, TranslateValues } from './i18n/i18n';

export { ToastProvider, useToast, TOAST_LIFETIME_MS } from './toast/ToastContext';
export type { Toast, ToastInput, ToastType, ToastContextValue } from './toast/ToastContext';
export { ToastStack } from './toast/ToastStack';

export { SignedInCard } from './session/SignedInCard';

export { cx } from './components/cx';
export { Alert } from './components/Alert';
export type { AlertProps } from './components/Alert';
export { Badge } from './components/Badge';
export type { BadgeProps, BadgeVariant } from './components/Badge';
export { Button } from './components/Button';
export type { ButtonProps, ButtonSize, ButtonVariant } from './components/Button';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/Card';
export { Checkbox, Switch } from './components/Checkbox';
export { LanguageSwitch } from './components/LanguageSwitch';
export { ConfirmDialog } from './components/ConfirmDialog';
export type { ConfirmDialogProps } from './components/ConfirmDialog';
export type { CheckboxProps, SwitchProps } from './components/Checkbox';
export { Dialog } from './components/Dialog';
export type { DialogProps } from './components/Dialog';
export { Input, Select, Textarea } from './components/Input';
export type { InputProps, SelectProps, TextareaProps } from './components/Input';
export { FieldError, Label } from './components/Label';
export type { FieldErrorProps } from './components/Label';
export { Menu, MenuItem, MenuLabel, MenuSeparator } from './components/Menu';
export type { MenuItemProps, MenuProps } from './components/Menu';
export { CopyButton } from './components/CopyButton';
export { LoadView } from './components/LoadView';
export type { LoadViewProps } from './components/LoadView';
export { PageStatus } from './components/PageStatus';
export { PIN_LENGTH, PinInput } from './components/PinInput';
export type { PinInputProps } from './components/PinInput';
export { Skeleton } from './components/Skeleton';
export type { SkeletonProps } from './components/Skeleton';
export { Spinner } from './components/Spinner';
export type { SpinnerProps } from './components/Spinner';
export { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from './components/Table';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './components/Tabs';
export type { TabsContentProps, TabsProps, TabsTriggerProps } from './components/Tabs';

export { useDocumentTitle } from './session/useDocumentTitle';

export { formatDateTime, formatTime, londonYearMonth } from './format/date-time';
export {
  PHONE_PREFIX_HINT,
  PHONE_VALID_HINT,
  UK_PHONE_PATTERN,
  normaliseUkPhone,
  normaliseUkPhoneWhileTyping,
  ukPhoneHint,
} from './validation/phone';
export type { PhoneHint } from './validation/phone';

export { useInterval } from './hooks/useInterval';
export { useMinimumBusy } from './hooks/useMinimumBusy';
export { useOnline } from './hooks/useOnline';

export { SERVER_CLOCK_SYNC_MS, serverNow, syncServerClock, useServerClock, useServerTimeEvery } from './time/server-clock';
export type { ServerClock } from './time/server-clock';
export {
  browserZone,
  DAY_MS,
  dayLabel,
  HOUR_MS,
  instantOfLocalInput,
  localInputValue,
  WEEKDAYS,
  zoneClock,
  zoneMidnight,
  zoneMidnights,
  zoneStamp,
} from './time/zone-time';
export type { ZoneClock } from './time/zone-time';
export { parseOnCallSlot, parseOnCallTimeline } from './on-call/on-call-timeline';
export type { OnCallGap, OnCallSlot, OnCallTimeline } from './on-call/on-call-timeline';

export {
  LiveEventsProvider,
  useLiveEvents,
  useLiveRefresh,
  useLiveState,
  useStreaming,
} from './live/LiveEventsContext';
export type { LiveRefreshOptions } from './live/LiveEventsContext';
export { LiveStatusBadge } from './live/LiveStatusBadge';
export { DEFAULT_RETRY_MS, EVENTS_PATH, MAX_RETRY_MS, SILENCE_LIMIT_MS } from './live/live-stream';
export type { LiveState } from './live/live-stream';
export { LIVE_EVENT_TYPES, parseActivityEntry, parseLiveEvent } from './live/live-events';
export type {
  AccountChange,
  AccountEvent,
  ActivityEvent,
  AlarmChange,
  AlarmEvent,
  CheckInRequestChange,
  CheckInRequestEvent,
  CheckInRequestOutcome,
  LiveEvent,
  LiveEventType,
  WorkerChange,
  WorkerEvent,
} from './live/live-events';

export { QUERY_FRESH_MS, QUERY_RETRIES, createQueryClient, loadOf, queryRetryDelay, shouldRetryQuery } from './query/query-client';
export type { Load } from './query/query-client';
export { LiveQueries, concerns, invalidateFor, queryClientSingleton, useLiveQuery } from './query/live-queries';
export type { LiveQueryOptions, LiveSource } from './query/live-queries';
