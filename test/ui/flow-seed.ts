import { useClock } from "../../src/domain/clock.js";
import type { TestServer } from "../helpers/server.js";

const HOUR = 3_600_000;

/**
 * A history of work moving on a board over the last `days` days (before the real now), written
 * through the API on the server's injectable clock (the server must run in this process, as
 * startTestServer does): tickets created in the first lane, claimed by one of three actors, moved
 * through the middle lanes and resolved in the last, some still open. Deterministic (a seeded
 * generator), so the screenshots and figures repeat. The clock is the real one again after.
 */
export async function seedFlowHistory(
  api: TestServer,
  boardId: number,
  laneIds: readonly number[],
  options: { tickets?: number; days?: number } = {},
): Promise<void> {
  const count = options.tickets ?? 36;
  const days = options.days ?? 21;
  const start = Date.now() - days * 24 * HOUR;
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const actors = ["ann", "bob", "codex-agent"];
  const last = laneIds.length - 1;
  type Step = { at: number; order: number; run: (id: number) => Promise<unknown> };
  const plans: { createdAt: number; title: string; steps: Step[] }[] = [];
  for (let index = 0; index < count; index++) {
    const createdAt = start + (index / count) * (days - 2) * 24 * HOUR;
    const steps: Step[] = [];
    let at = createdAt + (2 + random() * 30) * HOUR;
    const actor = actors[index % actors.length] as string;
    // Most tickets are claimed; the last ones are still waiting or in progress.
    const progress = index > count - 6 ? Math.floor(random() * 3) : last + 1;
    if (progress >= 1) {
      steps.push({
        at,
        order: 0,
        run: (id) => api.post(`/api/tickets/${id}/claim`, { actor, leaseSeconds: 86_400 }),
      });
      for (let lane = 1; lane <= Math.min(progress, last); lane++) {
        at += (1 + random() * (lane === 1 ? 40 : 14)) * HOUR;
        const laneId = laneIds[lane] as number;
        steps.push({
          at,
          order: 1,
          run: (id) =>
            api.patch(
              `/api/tickets/${id}`,
              lane === last ? { laneId, isResolved: true } : { laneId },
            ),
        });
      }
    }
    plans.push({
      createdAt,
      title: `Flow ticket ${index + 1}`,
      steps: steps.filter((s) => s.at < Date.now()),
    });
  }
  // Every write in time order across tickets, as it would have happened.
  const events: { at: number; order: number; run: () => Promise<unknown> }[] = [];
  const ids = new Map<number, number>();
  plans.forEach((plan, index) => {
    events.push({
      at: plan.createdAt,
      order: -1,
      run: async () => {
        const created = await api.post(`/api/boards/${boardId}/tickets`, {
          laneId: laneIds[0],
          title: plan.title,
        });
        ids.set(index, created.body.id);
        return created;
      },
    });
    for (const step of plan.steps)
      events.push({
        at: step.at,
        order: step.order,
        run: () => step.run(ids.get(index) as number),
      });
  });
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  let now = start;
  const restore = useClock(() => now);
  try {
    for (const event of events) {
      now = event.at;
      const answer = (await event.run()) as { status?: number; text?: string } | undefined;
      if (answer?.status && answer.status >= 300) throw new Error(answer.text);
    }
  } finally {
    restore();
  }
}
