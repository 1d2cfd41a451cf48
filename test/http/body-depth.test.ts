import { expect, test } from "bun:test";
import fc from "fast-check";
import { nestsDeeperThan } from "../../src/http/body";

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
      (value, max) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(text, max)).toBe(depthOf(JSON.parse(text)) > max);
      },
    ),
    { numRuns: 2_000 },
  );
});
