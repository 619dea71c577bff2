import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { ZodTypeAny } from 'zod';

/**
 * A react-hook-form resolver for a schema fetched the first time the form is checked (its first
 * submit), so the validation library is not part of what the page needs before it can show.
 * `warm()` starts the download early, e.g. when the user starts typing.
 */
export function lazyZodResolver<In extends FieldValues, Out>(
  load: () => Promise<ZodTypeAny>,
): { resolver: Resolver<In, unknown, Out>; warm(): void } {
  let resolver: Promise<Resolver<In, unknown, Out>> | null = null;
  const ready = () => {
    resolver ??= load().then(
      (schema) => zodResolver(schema) as unknown as Resolver<In, unknown, Out>,
      (error: unknown) => {
        resolver = null;
        throw error;
      },
    );
    return resolver;
  };
  return {
    resolver: async (values, context, options) => (await ready())(values, context, options),
    warm: () => void ready().catch(() => undefined),
  };
}
