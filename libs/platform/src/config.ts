import { z } from 'zod';

/** A configuration value that failed validation: the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable}: ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Variables every service reads. Service schemas extend this shape. */
export const baseConfigShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .url()
    .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// URL')
    .optional(),
  /** Connections each service process keeps to PostgreSQL at most. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  DATA_DIR: z.string().min(1).default('.data'),
  /** Embedded only: where the empty PGlite cluster new service directories copy is kept (default: inside DATA_DIR). */
  PGLITE_TEMPLATE_DIR: z.string().min(1).optional(),
  NATS_URL: z
    .string()
    .refine(
      (u) => u.split(',').every((s) => /^(nats|tls|wss?):\/\/[^\s]+$/.test(s.trim())),
      'must be nats://host:port (comma-separated for a cluster)',
    )
    .optional(),
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only')
    .default('LWS_EVENTS'),
  /** Copies of the event stream JetStream keeps: 1 on a single server, 3 on a cluster (an odd number up to 5). */
  EVENTS_STREAM_REPLICAS: z.coerce
    .number()
    .int()
    .refine((n) => [1, 3, 5].includes(n), 'must be 1, 3 or 5')
    .default(1),
  SUBJECT_PREFIX: z
    .string()
    .regex(/^([a-z0-9_-]+\.)?$/, 'empty, or a lower-case token ending with "."')
    .default(''),
  /** 1 lets tests move this process's clock (see clock.ts); refused in production. */
  LWS_TEST_CLOCK: z
    .enum(['0', '1'], { errorMap: () => ({ message: 'must be 1 (test clock on) or 0' }) })
    .default('0')
    .transform((v) => v === '1'),
};

/** Services with their own health port (the gateway serves health on PORT). */
export const healthPortShape = (defaultPort: number) => ({ HEALTH_PORT: port.default(defaultPort) });

export const configTypes = { port, bool };

export type BaseConfig = z.infer<z.ZodObject<typeof baseConfigShape>>;

/**
 * Validates the environment once at start-up. Unknown variables are ignored; empty strings
 * count as unset so `FOO=` in a compose file behaves like an absent value.
 */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const input: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => ({ variable: String(i.path[0] ?? '(config)'), message: i.message })));
  }
  const values = result.data as Record<string, unknown>;
  // A movable clock in production would let anyone with the switch hide a missed check-in.
  if (values.LWS_TEST_CLOCK === true && values.NODE_ENV === 'production') {
    throw new ConfigError([{ variable: 'LWS_TEST_CLOCK', message: 'the test clock cannot be enabled when NODE_ENV=production' }]);
  }
  return result.data;
}
