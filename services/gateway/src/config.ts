import { z } from 'zod';
import { baseConfigShape, configTypes, healthPortShape } from '@lws/platform';
import { liveConfigShape } from './live/live.config';

const { DATABASE_URL: _gatewayHasNoDatabase, DATA_DIR: _noData, PGLITE_TEMPLATE_DIR: _noTemplate, ...common } = baseConfigShape;

export const gatewayConfigShape = {
  ...common,
  PORT: configTypes.port.default(8080),
  /** Probes and Prometheus metrics for the operator's network, apart from the public PORT. */
  ...healthPortShape(8079),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Keeps concurrent test runs (and several deployments on one Redis) apart. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[a-z0-9:_-]*$/, 'lower-case letters, digits, ":", "_" and "-" only')
    .default('lws:'),
  STATIC_DIR: z.string().min(1).default('frontends'),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: configTypes.bool.default('false'),
  /**
   * The origin browsers reach LWS on (e.g. https://lws.example.org). A state-changing request whose
   * Origin is another is refused (CSRF); without it, the Origin must match the request's Host.
   */
  PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine((u) => /^https?:\/\/[^/]+\/?$/.test(u), 'must be an origin: http(s)://host[:port], no path')
    .optional(),
  LOGIN_MAX_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_IP_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().min(1).default(5),
  LOGIN_USERNAME_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Wrong PINs one kiosk may send per window before it is made to wait (the PIN names no account to lock). */
  KIOSK_PIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  KIOSK_PIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Requests one provisioning token may send per minute (SCIM); more get 429. */
  SCIM_MAX_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Requests one API token may send per minute; more get 429. */
  API_TOKEN_MAX_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  REMOTE_WORKER_URL: z.string().min(1).optional(),
  REMOTE_ADMIN_URL: z.string().min(1).optional(),
  REMOTE_SUPERADMIN_URL: z.string().min(1).optional(),
  REMOTE_KIOSK_URL: z.string().min(1).optional(),
  ...liveConfigShape,
};

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
