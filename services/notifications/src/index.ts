export { notificationsService } from './service';
export { FakeTwilio, FakeTwilioControl } from './fake-twilio/fake-twilio';
export type { FakeCall, FakeMessage, FakeTwilioOptions } from './fake-twilio/fake-twilio';
