import type { ZodError, ZodType } from 'zod';
import { CommandMap, CommandPattern, CommandSchemas, EventMap, EventSchemas, EventSubject } from './registry';

export interface ContractIssue {
  /** Dotted camelCase path of the offending field, e.g. "user.phone"; "" for the message itself. */
  path: string;
  message: string;
}

/** A message that does not match its contract. The message names each offending field. */
export class ContractError extends Error {
  readonly subject: string;
  readonly issues: ContractIssue[];
  /** Path of the first offending field, when there is one. */
  readonly field?: string;

  constructor(subject: string, issues: ContractIssue[]) {
    super(issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '));
    this.name = 'ContractError';
    this.subject = subject;
    this.issues = issues;
    this.field = issues.find((i) => i.path !== '')?.path;
  }
}

function toIssues(error: ZodError): ContractIssue[] {
  return error.issues.flatMap((issue) => {
    // zod reports extra keys once on the parent object; split them so each unknown field is named.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...issue.path, key].join('.'), message: 'Unknown field' }));
    }
    return [{ path: issue.path.join('.'), message: issue.message }];
  });
}

function parseWith<T>(subject: string, schema: ZodType<T> | undefined, what: string, data: unknown): T {
  if (!schema) throw new ContractError(subject, [{ path: '', message: `Unknown ${what} "${subject}"` }]);
  const result = schema.safeParse(data);
  if (!result.success) throw new ContractError(subject, toIssues(result.error));
  return result.data;
}

const eventSchemas: Partial<Record<string, ZodType<unknown>>> = EventSchemas;
const commandSchemas: Partial<Record<string, { request: ZodType<unknown>; reply: ZodType<unknown> }>> = CommandSchemas;

export function isEventSubject(s: string): s is EventSubject {
  return Object.hasOwn(EventSchemas, s);
}

export function isCommandPattern(s: string): s is CommandPattern {
  return Object.hasOwn(CommandSchemas, s);
}

/** Validates event data against its subject's contract; throws ContractError naming the bad field. */
export function parseEvent<S extends EventSubject>(subject: S, data: unknown): EventMap[S] {
  const schema = isEventSubject(subject) ? eventSchemas[subject] : undefined;
  return parseWith(subject, schema, 'event subject', data) as EventMap[S];
}

export function parseCommandRequest<P extends CommandPattern>(pattern: P, data: unknown): CommandMap[P]['request'] {
  const schemas = isCommandPattern(pattern) ? commandSchemas[pattern] : undefined;
  return parseWith(pattern, schemas?.request, 'command', data) as CommandMap[P]['request'];
}

export function parseCommandReply<P extends CommandPattern>(pattern: P, data: unknown): CommandMap[P]['reply'] {
  const schemas = isCommandPattern(pattern) ? commandSchemas[pattern] : undefined;
  return parseWith(pattern, schemas?.reply, 'command', data) as CommandMap[P]['reply'];
}
