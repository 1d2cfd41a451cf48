import { expect, test } from "bun:test";
import fc from "fast-check";
import { depthCheck, nestsDeeperThan, parseInSteps } from "../../src/http/body";

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

/** What JSON.parse makes of a text: its value written out (key order included), or that it throws. */
function outcome(parse: () => unknown): string {
  try {
    const value = parse();
    return `value ${JSON.stringify(value)} own keys ${ownKeys(value)}`;
  } catch (error) {
    return `throws ${error instanceof SyntaxError ? "SyntaxError" : String(error)}`;
  }
}
function ownKeys(value: unknown): string {
  return typeof value === "object" && value !== null ? Reflect.ownKeys(value).map(String).join(",") : "";
}

async function steppedOutcome(text: string, step: number): Promise<string> {
  const check = depthCheck(text, 64);
  if (check.read(text.length) !== "within") return "not scanned";
  try {
    const value = await parseInSteps(text, check.arrays, step);
    return `value ${JSON.stringify(value)} own keys ${ownKeys(value)}`;
  } catch (error) {
    return `throws ${error instanceof SyntaxError ? "SyntaxError" : String(error)}`;
  }
}

// An import's body: a root object whose members hold arrays of rows. Whitespace where JSON allows it, keys
// that repeat or are named __proto__, and damage (a character dropped, doubled or changed) at any place.
const row = fc.oneof(
  fc.integer(),
  tricky,
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom("title", "votes", "__proto__", "x"), fc.oneof(tricky, fc.integer()), {
    maxKeys: 3,
  }),
);
const space = fc.constantFrom("", " ", "\n", "\t ", "\r\n");
const body = fc
  .array(
    fc.tuple(
      fc.constantFrom("data", "rows", "source", "__proto__", "a"),
      fc.oneof(fc.array(row, { maxLength: 12 }), tricky, fc.integer()),
      space,
      space,
    ),
    { maxLength: 4 },
  )
  .map(
    (members) =>
      `{${members
        .map(([key, value, before, after]) => {
          const text = Array.isArray(value)
            ? `[${before}${value.map((element) => JSON.stringify(element)).join(`${after},${before}`)}${after}]`
            : JSON.stringify(value);
          return `${JSON.stringify(key)}${before}:${after}${text}`;
        })
        .join(",")}}`,
  );
const damaged = fc
  .tuple(body, fc.nat(), fc.constantFrom("drop", "double", ",", "]", "}", '"', " ", "none"))
  .map(([text, at, damage]) => {
    const place = text.length === 0 ? 0 : at % text.length;
    if (damage === "none") return text;
    if (damage === "drop") return text.slice(0, place) + text.slice(place + 1);
    if (damage === "double") return text.slice(0, place + 1) + text.slice(place);
    return text.slice(0, place) + damage + text.slice(place + 1);
  });

test("a large body parsed a few elements per turn gives what JSON.parse gives, value or error", async () => {
  await fc.assert(
    fc.asyncProperty(damaged, fc.integer({ min: 1, max: 40 }), async (text, step) => {
      const whole = outcome(() => JSON.parse(text));
      const stepped = await steppedOutcome(text, step);
      if (stepped !== "not scanned") expect(stepped).toBe(whole);
    }),
    { numRuns: 3_000 },
  );
  // Cases the generator might take long to reach.
  for (const text of [
    '{"a":[1,]}',
    '{"a":[,1]}',
    '{"a":[1,,2]}',
    '{"a":[   ]}',
    '{"a":[1 2]}',
    '{"a":[1],"a":[2,3]}',
  ]) {
    expect(await steppedOutcome(text, 1)).toBe(outcome(() => JSON.parse(text)));
  }
});

test("a large body's big arrays are parsed over several turns of the event loop", async () => {
  const rows = Array.from({ length: 10_000 }, (_, row) => ({
    title: `Request ${row}`,
    description: "x".repeat(40),
  }));
  const text = JSON.stringify({ source: "csv", data: rows });
  const check = depthCheck(text, 64);
  expect(check.read(text.length)).toBe("within");
  let otherWorkRan = false;
  const parsing = parseInSteps(text, check.arrays);
  setImmediate(() => {
    otherWorkRan = true;
  });
  expect(await parsing).toEqual({ source: "csv", data: rows });
  expect(otherWorkRan).toBe(true);
});

test("the depth check stops inside a long string when its step is over", () => {
  // A CSV text sent as JSON: one string of escaped quotes, read to its end in one step it held the loop.
  const csv = Array.from({ length: 2_000 }, (_, row) => `"Request ${row}","said ""please""",open`).join("\n");
  const text = JSON.stringify({ source: "csv", csv });
  const check = depthCheck(text, 64);
  let until = 4_096;
  while (check.read(until) === "more") {
    expect(check.readSoFar()).toBeLessThanOrEqual(until);
    until += 4_096;
  }
  expect(until).toBeGreaterThan(text.length);
});
