import type { ComponentType } from 'react';

// The login page is code of its own (it brings react-hook-form), so that the kiosk and a signed-in
// worker's screen do not download it. Where it is the first screen, the entry asks for it beside
// the app's own code, so it costs /login no extra round trip (early-requests.ts).

let page: ComponentType | undefined;
let loading: Promise<ComponentType> | undefined;

/** Loads the login page once; a failed load is forgotten, so the next call tries again. */
export function loadLoginPage(): Promise<ComponentType> {
  // Named, so that a test (and anyone reading a network log) can tell the login page's code apart.
  loading ??= import(/* webpackChunkName: "login" */ './LoginPage').then(
    (module) => (page = module.LoginPage),
    (error: unknown) => {
      console.error('The login page could not be loaded', error);
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The login page, if it has loaded. */
export function loadedLoginPage(): ComponentType | undefined {
  return page;
}
