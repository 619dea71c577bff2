import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, hostDetector, processDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * Requests whose address is itself a secret (a calendar feed's token, which calendar apps can only
 * send in the URL): never traced, so the token never reaches a span's `http.target`.
 */
export const SECRET_PATHS = ['/api/on-call/feed/'];
export const isSecretPath = (url: string | undefined) => SECRET_PATHS.some((p) => url?.startsWith(p) === true);

export interface Tracing {
  enabled: boolean;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry before the app is loaded, so the instrumentations can wrap the modules
 * (http, express, NestJS, pg, ioredis, pino) when they are first required; the bus carries the
 * trace context itself (libs/messaging). Off unless an OTLP endpoint is configured;
 * OTEL_SDK_DISABLED=true always wins.
 *
 * Only the tracer and these six instrumentations, not sdk-node's every exporter and
 * auto-instrumentations' forty-odd libraries: a service image carries what it uses.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (env.OTEL_SDK_DISABLED === 'true' || !endpoint) {
    return { enabled: false, shutdown: async () => undefined };
  }
  const resource = resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? `lws-${serviceName}` }).merge(
    detectResources({ detectors: [envDetector, processDetector, hostDetector] }),
  );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  // The global tracer provider, the async-context manager and the W3C trace-context propagator.
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => isSecretPath(req.url) }),
      new ExpressInstrumentation(),
      new NestInstrumentation(),
      new PgInstrumentation(),
      new IORedisInstrumentation(),
      new PinoInstrumentation(),
    ],
  });
  return {
    enabled: true,
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}
