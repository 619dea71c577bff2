import { DEFAULT_LOCATION } from './constants';

/** The start-shift dropdown's first choice (spec section 4, "Shift"). */
export function defaultLocationChoice(userLocation: string | null | undefined, active: readonly { name: string }[]): string | undefined {
  const names = active.map((l) => l.name);
  if (userLocation && names.includes(userLocation)) return userLocation;
  if (names.includes(DEFAULT_LOCATION)) return DEFAULT_LOCATION;
  return names[0];
}
