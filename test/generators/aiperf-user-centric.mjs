/**
 * aiperf records of a user-centric run (`--user-centric-rate`) over several profiling phases, in
 * which aiperf reuses an x_correlation_id over several conversations:
 * - each phase builds its own timing strategy (ai-dynamo/aiperf
 *   `src/aiperf/timing/phase_orchestrator.py`: a PhaseRunner per phase config;
 *   `src/aiperf/timing/phase/runner.py` `_build_strategy`);
 * - UserCentricStrategy (`src/aiperf/timing/strategies/user_centric_rate.py`) numbers its users
 *   from 1 and names each user's session `x_correlation_id=str(user_id)` through
 *   ConversationSource.next (`src/aiperf/timing/conversation_source.py`), whose dataset sampler
 *   goes on to the next conversations, shared by the phases;
 * - setup_phase's virtual history: of `users` users over conversations of `turns` turns (session
 *   lifetime `turns − 1` gaps), user i (0-based) has `lifetime − floor((users − i) × lifetime /
 *   users)` turns left; the first, "virtually done", is skipped (its id still counted), the
 *   others send turns from turn_index 0 (build_first_turn with max_turns), and one more user
 *   starts at t=0 with every turn.
 * Records as MetricRecordMetadata serialises them (`src/aiperf/common/models/record_models.py`:
 * agent_depth 0, parent_correlation_id omitted for a root), metrics `{value, unit}`, cached
 * prompt tokens `usage_prompt_cache_read_tokens`. Per record k (0-based, in file order): TTFT
 * 20 + k ms, latency 400 ms, input 500 × (turn + 1) tokens, cached 480 × turn tokens.
 *
 * opts: users (3), turns (3), phases (2 profiling phases), warmup (1: a warm-up phase of one user
 * with one turn before them). Returns { text, records }.
 */
export function aiperfUserCentric(opts = {}) {
  const users = opts.users ?? 3;
  const turns = opts.turns ?? 3;
  const phases = opts.phases ?? 2;
  const warmup = opts.warmup ?? 1;
  const t0 = 1780520000000000000n;
  const records = [];
  let conversation = 0;
  const phase = (benchmarkPhase, plan) => {
    for (const [user, count] of plan) {
      const conversationId = `conv-${conversation++}`;
      for (let turn = 0; turn < count; turn++) {
        const k = records.length;
        const start = t0 + BigInt(k) * 1_000_000_000n;
        records.push({
          metadata: {
            session_num: k,
            x_request_id: `req-${k}`,
            x_correlation_id: String(user),
            conversation_id: conversationId,
            turn_index: turn,
            agent_depth: 0,
            request_start_ns: start,
            request_end_ns: start + 400_000_000n,
            worker_id: "worker_1",
            record_processor_id: "rp_1",
            benchmark_phase: benchmarkPhase,
            was_cancelled: false,
          },
          metrics: {
            time_to_first_token: { value: 20 + k, unit: "ms" },
            request_latency: { value: 400, unit: "ms" },
            input_sequence_length: { value: 500 * (turn + 1), unit: "tokens" },
            output_sequence_length: { value: 16, unit: "tokens" },
            usage_prompt_cache_read_tokens: { value: 480 * turn, unit: "tokens" },
          },
        });
      }
    }
  };
  /** One phase's users as setup_phase makes them: [x_correlation_id, turns to send]. */
  const setup = () => {
    const lifetime = Math.max(1, turns - 1);
    const plan = [];
    let next = 1;
    for (let i = 0; i < users; i++) {
      const left = lifetime - Math.floor(((users - i) * lifetime) / users);
      const id = next++;
      if (left > 0) plan.push([id, left]);
    }
    plan.push([next, turns]);
    return plan;
  };
  if (warmup > 0) phase("warmup", [[1, warmup]]);
  for (let p = 0; p < phases; p++) phase("profiling", setup());
  const text = records
    .map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? Number(v) : v)))
    .join("\n");
  return { text: text + "\n", records };
}
