// "Check in now" on the monitors' dashboard: the card that follows the asks, and the asking itself
// (the Worker Dashboard's buttons). Bundled into each remote that uses it, while components come
// from the shared '@lws/fe-ui' singleton.
export { CheckInRequestsCard } from './CheckInRequestsCard';
export {
  CHECK_IN_REQUESTS_KEY,
  CHECK_IN_REQUESTS_POLL_MS,
  checkInRequestsLive,
  requestTime,
  useAskToCheckIn,
  waitingWorkers,
} from './checkin-requests';
export type { AskTarget } from './checkin-requests';
