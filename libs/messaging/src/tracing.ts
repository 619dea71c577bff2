import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
} from '@opentelemetry/api';

/**
 * W3C trace context across the bus. A span's context travels in NATS headers for requests and
 * for published events, and with each event in the outbox (the envelope's `trace`), so one
 * check-in is one trace from the gateway to every consumer. Without the OpenTelemetry SDK (the
 * default: it starts only when an OTLP endpoint is set) every call here is a cheap no-op.
 */
const tracer = trace.getTracer('lws-messaging');

/** traceparent / tracestate, as they travel. */
export type TraceCarrier = Record<string, string>;

/** The active context as a carrier; undefined when there is nothing to carry (no SDK, no span). */
export function activeCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The context a carrier names, or none (a new trace) without one. */
export function contextOf(carrier: TraceCarrier | undefined): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
}

export { SpanKind };

/** Links to the spans the carriers name: a batch's span links to the trace of each of its events. */
export function linksTo(carriers: readonly (TraceCarrier | undefined)[]): Link[] {
  const links: Link[] = [];
  for (const carrier of carriers) {
    const spanContext = carrier && trace.getSpanContext(contextOf(carrier));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

/** Runs `work` in a span under `parent`; the span records a thrown error and ends either way. */
export function inSpan<T>(
  name: string,
  kind: SpanKind,
  parent: Context,
  attributes: Attributes,
  work: () => Promise<T>,
  links: Link[] = [],
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes, links }, parent, async (span) => {
    try {
      return await work();
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Trace headers of a NATS message as a carrier. */
export function carrierOfHeaders(headers: { keys(): string[]; get(k: string): string } | undefined): TraceCarrier | undefined {
  if (!headers) return undefined;
  const carrier: TraceCarrier = {};
  for (const key of ['traceparent', 'tracestate']) {
    const value = headers.get(key);
    if (value) carrier[key] = value;
  }
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}
