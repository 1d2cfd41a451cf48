import { expect, test } from "bun:test";
import fc from "fast-check";
import { depthCheck, nestsDeeperThan } from "../../src/http/body";

/** Arrays and objects nested in a parsed value: `[]` is 1, `[[1]]` is 2, a scalar 0. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (typeof value === "object" && value !== null)
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

// Strings full of what the scan must not count: brackets, quotes, backslashes (escaped in the JSON text).
const tricky = fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", " ") });

test("the depth check agrees with the parsed document, whatever its strings hold", () => {
  fc.assert(
    fc.property(
      fc.letrec((tie) => ({
        value: fc.oneof(
          { depthSize: "small" },
          tricky,
          fc.integer(),
          fc.array(tie("value"), { maxLength: 3 }),
          fc.dictionary(tricky, tie("value"), { maxKeys: 3 }),
        ),
      })).value,
      fc.integer({ min: 0, max: 6 }),
      fc.integer({ min: 1, max: 12 }),
      (value, max, step) => {
        const text = JSON.stringify(value);
        const deeper = depthOf(JSON.parse(text)) > max;
        expect(nestsDeeperThan(text, max)).toBe(deeper);
        // Read a few characters at a time, as a large body is read a step per turn: the same answer, even
        // when a step ends inside a string, after a backslash or between two brackets.
        const check = depthCheck(text, max);
        let state = check.read(step);
        for (let until = 2 * step; state === "more"; until += step) state = check.read(until);
        expect(state === "deeper").toBe(deeper);
      },
    ),
    { numRuns: 2_000 },
  );
});
