/** A row of GET /api/location-options. */
export interface LocationOption {
  id: number;
  name: string;
  isActive: boolean;
  createdAt: string | null;
  /** Sent to admins and the superadmin: false for a location only the superadmin may change. */
  canChange?: boolean;
}

/** Rows without an id or a name are dropped rather than shown half-empty; isActive defaults to true as on the server. */
export function parseLocationOptions(body: unknown): LocationOption[] {
  if (!Array.isArray(body)) throw new Error('Expected a list of locations');
  return body.flatMap((item: unknown) => {
    const v = item && typeof item === 'object' ? (item as Record<string, unknown>) : null;
    if (!v || typeof v.id !== 'number' || typeof v.name !== 'string') return [];
    return [
      {
        id: v.id,
        name: v.name,
        isActive: v.isActive !== false,
        createdAt: typeof v.createdAt === 'string' ? v.createdAt : null,
        ...(typeof v.canChange === 'boolean' ? { canChange: v.canChange } : {}),
      },
    ];
  });
}
