// Helpers for the frontends' component tests, which run without any server. Never imported by a screen.
export { fakeApi, signedInHint, supportDialogs, writes } from './fake-api';
export type { FakeAnswer, FakeRoutes, SentRequest } from './fake-api';
export { ScreenProviders } from './providers';
export { renderScreen, resetScreen } from './render-screen';
export type { ScreenOptions } from './render-screen';
