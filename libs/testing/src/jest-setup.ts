// Tests never export traces, and keep logs quiet unless asked.
process.env.OTEL_SDK_DISABLED = 'true';
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'silent';
