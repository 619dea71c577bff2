import { NodeSDK } from '@opentelemetry/sdk-node';
import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

export interface Tracing {
  enabled: boolean;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry before the app is loaded, so auto-instrumentation can wrap the
 * modules (http, express, pg, ioredis, nats) when they are first required. Off unless an
 * OTLP endpoint is configured; OTEL_SDK_DISABLED=true always wins.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (env.OTEL_SDK_DISABLED === 'true' || !endpoint) {
    return { enabled: false, shutdown: async () => undefined };
  }
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? `lws-${serviceName}`,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      getNodeAutoInstrumentations({
        '@opentelemetry/instrumentation-fs': { enabled: false },
        '@opentelemetry/instrumentation-dns': { enabled: false },
      }),
    ],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
