import type { ComponentType } from 'react';
import { onDemand } from '../app/on-demand';

// The login page is code of its own (it brings react-hook-form), so that the kiosk and a signed-in
// worker's screen do not download it. Where it is the first screen, the entry asks for it beside
// the app's own code, so it costs /login no extra round trip (early-requests.ts). The chunk is
// named, so that a test (and anyone reading a network log) can tell the login page's code apart.
export const loginPage = onDemand<ComponentType>('login page', () =>
  import(/* webpackChunkName: "login" */ './LoginPage').then((m) => m.LoginPage),
);
