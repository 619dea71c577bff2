import type { INestApplication } from '@nestjs/common';

/** `METHOD path` for every route registered on the gateway's Express router. */
export function servedRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => layer.route!.methods[m])
          .map((m) => `${m.toUpperCase()} ${layer.route!.path}`)
      : [],
  );
}
