// Code a page fetches the first time it is needed (the login page, the profile). No React here: the
// entry (index.ts) may start a load before the shared modules are ready.

export interface OnDemand<T> {
  /** Loads it once; every caller shares the load in flight. A failed load is forgotten, so the next call tries again. */
  load(): Promise<T>;
  /** It, if it has loaded. */
  loaded(): T | undefined;
}

export function onDemand<T>(what: string, importer: () => Promise<T>): OnDemand<T> {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load: () =>
      (loading ??= importer().then(
        (loadedValue) => (value = loadedValue),
        (error: unknown) => {
          console.error(`The ${what} could not be loaded`, error);
          loading = undefined;
          throw error;
        },
      )),
    loaded: () => value,
  };
}
