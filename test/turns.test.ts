import { expect, test } from "bun:test";
import { nextTurn } from "../src/turns";

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Holds the loop, as an import slice or an embedding batch does.
  }
}

// Long tasks that step with nextTurn at the same time (an import and the embedding of its posts) must
// let waiting work in between each pair of their steps, not run their steps back to back in one turn
// (src/turns.ts; docs/performance.md, "one background step per turn").
test("steps of concurrent long tasks run one per turn, with timers between them", async () => {
  const order: string[] = [];
  const timer = setInterval(() => order.push("timer"), 1);
  const task = async (name: string) => {
    for (let step = 0; step < 6; step++) {
      await nextTurn();
      order.push(name);
      busy(3);
    }
  };
  await Promise.all([task("import"), task("embed"), task("parse")]);
  clearInterval(timer);

  const steps = order.filter((entry) => entry !== "timer");
  expect(steps).toHaveLength(18);
  // Fair: each task's steps take turns.
  expect(steps.slice(0, 3).sort()).toEqual(["embed", "import", "parse"]);
  for (let index = 1; index < order.length; index++) {
    if (order[index] === "timer") continue;
    expect(order[index - 1]).toBe("timer");
  }
});
