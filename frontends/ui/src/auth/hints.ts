// Cookies the gateway sets beside its httpOnly session and kiosk cookies (services/gateway/src/
// sessions/hints.ts): whether there is a session, whether this device is an enrolled kiosk. They
// carry no secret; they only spare a signed-out visitor the session check and an ordinary browser
// the kiosk roster request. A hint the server proves wrong (401, 403) is dropped here.
export const SIGNED_IN_HINT = 'lws_signed_in';
export const KIOSK_HINT = 'lws_kiosk_enrolled';

export function hasHint(name: string): boolean {
  if (typeof document === 'undefined') return true;
  return document.cookie.split(';').some((c) => c.trim() === `${name}=1`);
}

export function dropHint(name: string): void {
  if (typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and older Safari, which workers' phones run.
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax`;
}
