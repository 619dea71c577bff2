/**
 * The logging surface this library needs. A pino logger satisfies it; the library never
 * imports pino so each service decides how logs are shaped and where they go.
 */
export interface MessagingLogger {
  info(obj: unknown, msg?: string, ...args: unknown[]): void;
  warn(obj: unknown, msg?: string, ...args: unknown[]): void;
  error(obj: unknown, msg?: string, ...args: unknown[]): void;
  debug(obj: unknown, msg?: string, ...args: unknown[]): void;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : (JSON.stringify(err) ?? String(err));
}
