/**
 * The Dynamo request trace's chart payload (docs/metrics.md §Dynamo request traces): per
 * agent session, its turns, model time and tool time. Stored with the run, served by
 * /api/runs/{id}/charts/dynamo-trace-sessions; the Sessions view draws the
 * agent-sessions payload (lib/api/agent-sessions.ts).
 */
import { z } from "zod";

export const dynamoTraceSessionsPayloadSchema = z.object({
  sessions: z.array(
    z.object({
      sessionId: z.string(),
      parentSessionId: z.string().nullable(),
      turns: z.number(),
      modelTimeMs: z.number().nullable(),
      toolTimeMs: z.number().nullable(),
      toolCalls: z.number(),
    }),
  ),
});
