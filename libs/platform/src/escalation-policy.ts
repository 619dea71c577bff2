import { z } from 'zod';
import { stepOrderProblem } from '@lws/rules';

/**
 * An alarm's escalation policy: ordered steps, each run once, in order. `after` is seconds from
 * the alarm's opening (a step whose time has passed runs as soon as the one before it is done);
 * 'calls_done' runs as soon as the call round before it has finished.
 */
const seconds = z
  .number()
  .int()
  .min(0)
  .max(24 * 3600);

export const policyStepSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('notify_worker'), after: seconds }).strict(),
  /** Every monitor of the worker's team (each away one's deputy instead); with no team, every admin. */
  z.object({ action: z.literal('notify_monitors'), after: seconds }).strict(),
  /** One monitor of the team, by their place in its order (1: the first); their deputy while they are away. */
  z.object({ action: z.literal('notify_monitor'), after: seconds, position: z.number().int().min(1).max(50) }).strict(),
  /** The deputy of the team's monitor at that place. */
  z.object({ action: z.literal('notify_deputy'), after: seconds, position: z.number().int().min(1).max(50) }).strict(),
  /**
   * Whoever is on call for the team on its rota when the alarm opened (their deputy while they are
   * away); with no rota or nobody on call then, the team's monitors, and the history says why.
   */
  z.object({ action: z.literal('notify_on_call'), after: seconds }).strict(),
  /** The next layer's person on the rota when the alarm opened; else the team's monitors, as above. */
  z.object({ action: z.literal('notify_on_call_next'), after: seconds }).strict(),
  /** Every admin of the organisation, whatever their teams. */
  z.object({ action: z.literal('notify_organisation'), after: seconds }).strict(),
  z
    .object({
      action: z.literal('call_emergency_numbers'),
      after: seconds,
      // Calls exist to find someone who owns the alarm: once a monitor does, they stop.
      unlessAcknowledged: z.boolean().default(true),
    })
    .strict(),
  /**
   * Hands the alarm to a webhook endpoint (an alarm receiving centre, a control room) with all a
   * responder needs; the receiver acknowledges and resolves it back through the API with its token.
   */
  z
    .object({
      action: z.literal('hand_off'),
      after: seconds,
      endpointId: z.string().uuid('endpointId must be a webhook endpoint id'),
      // A hand-off exists for the alarm nobody here has taken: once a monitor has, it is not sent.
      unlessAcknowledged: z.boolean().default(true),
    })
    .strict(),
  z
    .object({
      action: z.literal('message_contacts'),
      after: z.union([seconds, z.literal('calls_done')]),
      /** Emergency: also call the worker's primary contact. */
      callPrimaryContact: z.boolean().default(false),
      unlessAcknowledged: z.boolean().default(false),
    })
    .strict(),
]);

export type PolicyStep = z.infer<typeof policyStepSchema>;
export type PolicyAction = PolicyStep['action'];

const stepsSchema = z
  .array(policyStepSchema)
  .min(1)
  .max(20)
  .superRefine((steps, ctx) => {
    const problem = stepOrderProblem(steps);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [problem.index, 'after'], message: problem.message });
  });

/** ESCALATION_POLICY: either kind's steps may be replaced; what is absent keeps the default. */
export const policyOverrideSchema = z
  .object({
    missed_check_in: stepsSchema.optional(),
    emergency: stepsSchema.optional(),
    /** An alarm nobody has acknowledged when its steps are done: monitors are reminded and the numbers called again this often. */
    repeatAfterSeconds: z
      .number()
      .int()
      .min(30)
      .max(24 * 3600)
      .optional(),
  })
  .strict();

export type PolicyOverride = z.infer<typeof policyOverrideSchema>;
