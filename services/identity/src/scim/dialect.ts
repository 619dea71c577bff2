import SCIMMY from 'scimmy';

/**
 * What real provisioning clients send that scimmy (rightly, by RFC 7643) refuses, rewritten to what
 * they mean before scimmy reads it:
 * - Entra ID sends booleans as strings ("active": "False", "primary": "True");
 * - Entra ID sets a value it never had with a filtered path (`emails[type eq "work"].value`), which
 *   matches nothing: it means "add one of that type";
 * - Entra ID sends the enterprise extension's manager as a bare id;
 * - types in another case ("Work", "user") than the schema's canonical values;
 * - a PatchOp without its `schemas`.
 * Nothing else is changed: what scimmy still refuses is answered with its error.
 */

/** Attributes of the User and Group schemas typed boolean, wherever they sit. */
const BOOLEANS = new Set(['active', 'primary']);

/** The canonical `type` values of the multi-valued attributes that have them (RFC 7643 section 4.1.2). */
const CANONICAL_TYPES: Record<string, readonly string[]> = {
  emails: ['work', 'home', 'other'],
  phonenumbers: ['work', 'home', 'mobile', 'fax', 'pager', 'other'],
  addresses: ['work', 'home', 'other'],
  ims: ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo'],
  photos: ['photo', 'thumbnail'],
  members: ['User', 'Group'],
};

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** "True" / "False" in any case as the boolean they spell; anything else as it is. */
export function booleanOf(value: Json): Json {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : value;
}

/** A type in its canonical spelling, or undefined when the attribute has no such type (it is dropped). */
function canonicalType(attribute: string, type: Json): Json | undefined {
  const allowed = CANONICAL_TYPES[attribute.toLowerCase()];
  if (!allowed || typeof type !== 'string') return type;
  return allowed.find((t) => t.toLowerCase() === type.trim().toLowerCase());
}

/** One value of a multi-valued attribute (an e-mail, a member) with its booleans and type put right. */
function normaliseItem(attribute: string, item: Json): Json {
  if (!isObject(item)) return item;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    const k = key.toLowerCase();
    if (BOOLEANS.has(k)) out[key] = booleanOf(value);
    else if (k === 'type') {
      // Roles and certificates declare no type values at all, so scimmy refuses any; the type says nothing LWS keeps.
      if (attribute.toLowerCase() === 'roles' || attribute.toLowerCase() === 'x509certificates') continue;
      const type = canonicalType(attribute, value);
      if (type !== undefined) out[key] = type;
    } else out[key] = value;
  }
  return out;
}

/** The value of `attribute` (a top-level name, or a path's first part) as scimmy reads it. */
function normaliseAttribute(attribute: string, value: Json): Json {
  const k = attribute.toLowerCase();
  if (BOOLEANS.has(k)) return booleanOf(value);
  if (Array.isArray(value)) return value.map((item) => normaliseItem(attribute, item));
  if (k === ENTERPRISE.toLowerCase() && isObject(value)) return normaliseEnterprise(value);
  if (k === `${ENTERPRISE}:manager`.toLowerCase()) return managerOf(value);
  if (isObject(value) && CANONICAL_TYPES[k]) return normaliseItem(attribute, value);
  return value;
}

const managerOf = (value: Json): Json => (typeof value === 'string' ? { value } : value);

function normaliseEnterprise(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) out[key] = key.toLowerCase() === 'manager' ? managerOf(v) : v;
  return out;
}

/** A User or Group body (POST, PUT) as scimmy should read it. */
export function normaliseResource(body: unknown): unknown {
  if (!isObject(body)) return body;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(body)) out[key] = normaliseAttribute(key, value);
  return out;
}

/** `attr[sub eq "x"].leaf` with one equality filter: the shape clients use to name one value of a list. */
const FILTERED_PATH = /^([^[\].]+)\[\s*([^\s[\]]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*\]\.([^[\].]+)$/i;

/** Whether a value of `list` has `key` equal to `expected` (keys compared as SCIM does, case-insensitively). */
function anyMatches(list: unknown, key: string, expected: string): boolean {
  if (!Array.isArray(list)) return false;
  return list.some(
    (item) =>
      isObject(item) &&
      Object.entries(item).some(([k, v]) => k.toLowerCase() === key.toLowerCase() && String(v).toLowerCase() === expected.toLowerCase()),
  );
}

/** The attribute `name` of a resource, whatever the case it is spelt in. */
function attributeOf(resource: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(resource).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : resource[key];
}

/** One operation of a PatchOp as scimmy should read it, given the resource it applies to. */
function normaliseOperation(operation: Json, current: Record<string, unknown>): Json {
  if (!isObject(operation)) return operation;
  const { op, path, value } = operation;
  if (typeof path !== 'string') return value === undefined ? operation : { ...operation, value: normaliseResource(value) as Json };
  const trimmed = path.trim();
  const leaf = trimmed.split('.').pop() ?? trimmed;
  let normalised: Json | undefined = value;
  if (value !== undefined) {
    if (BOOLEANS.has(leaf.toLowerCase())) normalised = booleanOf(value);
    else {
      const attribute = trimmed.replace(/\[.*$/, '');
      normalised = normaliseAttribute(attribute, value);
    }
  }
  const filtered = FILTERED_PATH.exec(trimmed);
  const adds = typeof op === 'string' && ['add', 'replace'].includes(op.toLowerCase());
  if (filtered && adds && normalised !== undefined) {
    const [, attribute, key, expected, sub] = filtered;
    // Nothing to set a value on: the client means a new value of that type.
    if (!anyMatches(attributeOf(current, attribute), key, expected)) {
      const item = normaliseItem(attribute, { [key]: expected.replace(/\\(.)/g, '$1'), [sub]: normalised });
      return { ...operation, op: 'add', path: attribute, value: [item] };
    }
  }
  return normalised === undefined ? operation : { ...operation, value: normalised };
}

/** A PATCH body as scimmy should read it, given the resource as it stands (`current`, what GET answers). */
export function normalisePatch(body: unknown, current: Record<string, unknown>): unknown {
  if (!isObject(body)) return body;
  const operations = body.Operations ?? body.operations;
  const out: JsonObject = { ...body, schemas: body.schemas ?? [PATCH_OP] };
  delete out.operations;
  out.Operations = Array.isArray(operations) ? operations.map((o) => normaliseOperation(o, current)) : (operations ?? null);
  if (out.Operations === null) delete out.Operations;
  return out;
}

/** Bidirectional embeddings, overrides and isolates: text that displays other than it reads. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
/** Half of a surrogate pair on its own: not text at all (PostgreSQL refuses it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The request body's JSON, or a SCIM 400. Text PostgreSQL cannot store (a NUL, a lone surrogate) or
 * that reads other than it displays (a bidirectional control) is refused as the screens refuse it,
 * naming where it is; so is nesting deeper than any SCIM resource has.
 */
export function parseBody(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'The request body is not valid JSON');
  }
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: parsed, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000') || BIDI_CONTROL.test(value) || LONE_SURROGATE.test(value))
        throw new SCIMMY.Types.Error(
          400,
          'invalidValue',
          `${path || 'The body'} must be text without NUL or bidirectional control characters`,
        );
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= 12) throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'The request body is nested too deeply');
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000') || BIDI_CONTROL.test(key) || LONE_SURROGATE.test(key))
        throw new SCIMMY.Types.Error(400, 'invalidSyntax', 'Attribute names must be text without NUL or bidirectional control characters');
      stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return parsed;
}
