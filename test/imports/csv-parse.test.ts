import { expect, test } from "bun:test";
import fc from "fast-check";
import { CsvError, csvReader, parseCsv } from "../../src/imports/csv";

/**
 * The reference: RFC 4180 read a character at a time, as csv.ts did before it cut fields with `slice`
 * (too slow for a 2 MB file on the event loop, issue 19). The reader must give the same records and the
 * same errors, whatever the text and wherever its steps end.
 */
function referenceRecords(text: string): string[][] {
  return referenceRead(text).records;
}

/** The reference's records and the line each starts on: the line of its first character. */
function referenceRead(text: string): { records: string[][]; lines: number[] } {
  const records: string[][] = [];
  const lines: number[] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let recordLine = 1;
  const endField = () => {
    record.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    if (!(record.length === 1 && record[0] === "")) {
      records.push(record);
      lines.push(recordLine);
    }
    record = [];
  };
  while (index < text.length) {
    const char = text[index]!;
    if (record.length === 0 && field === "" && !quoted) recordLine = line;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        const next = text[index + 1];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
          throw new CsvError(`line ${line}: a closing quote must end its field`);
        }
      } else {
        if (char === "\n") line++;
        field += char;
      }
      index++;
      continue;
    }
    if (char === '"' && field === "") quoted = true;
    else if (char === ",") endField();
    else if (char === "\n" || char === "\r") {
      endRecord();
      if (char === "\r" && text[index + 1] === "\n") index++;
      line++;
    } else field += char;
    index++;
  }
  if (quoted) throw new CsvError(`line ${line}: a quoted field is never closed`);
  if (field !== "" || record.length > 0) endRecord();
  return { records, lines };
}

function outcome(read: () => string[][]): string {
  try {
    return JSON.stringify(read());
  } catch (error) {
    return error instanceof CsvError ? `CsvError ${error.message}` : `other ${String(error)}`;
  }
}

function readInSteps(text: string, step: number): string[][] {
  return readWithLinesInSteps(text, step).records;
}

function readWithLinesInSteps(text: string, step: number): { records: string[][]; lines: number[] } {
  const reader = csvReader(text);
  const records: string[][] = [];
  const lines: number[] = [];
  for (let until = step; ; until += step) {
    const ended = reader.read(until);
    records.push(...reader.records.splice(0));
    lines.push(...reader.recordLines.splice(0));
    if (ended) return { records, lines };
  }
}

// Texts made of what CSV gives meaning to, so quotes, separators and line ends meet in every order.
const csvText = fc
  .tuple(
    fc.boolean(),
    fc.string({ unit: fc.constantFrom('"', ",", "\n", "\r", "\r\n", "a", "b", " ", '""'), maxLength: 60 }),
  )
  .map(([bom, text]) => (bom ? "\ufeff" : "") + text);

test("the CSV reader gives the reference's records and errors, read whole or a few characters at a time", () => {
  fc.assert(
    fc.property(csvText, fc.integer({ min: 1, max: 20 }), (text, step) => {
      const expected = outcome(() => referenceRecords(text));
      expect(outcome(() => readInSteps(text, Number.POSITIVE_INFINITY))).toBe(expected);
      expect(outcome(() => readInSteps(text, step))).toBe(expected);
    }),
    { numRuns: 5_000 },
  );
});

// An import's skipped row is said by its line in the file (docs/dashboard.md, "Import"): the line its
// first character is on, after quoted cells holding line breaks and blank lines before it.
test("the CSV reader gives the line each record starts on, as the reference counts it", () => {
  fc.assert(
    fc.property(csvText, fc.integer({ min: 1, max: 20 }), (text, step) => {
      const expected = outcome(() => {
        const { lines } = referenceRead(text);
        return lines.map((line) => [String(line)]);
      });
      const read = (until: number) =>
        outcome(() => readWithLinesInSteps(text, until).lines.map((line) => [String(line)]));
      expect(read(Number.POSITIVE_INFINITY)).toBe(expected);
      expect(read(step)).toBe(expected);
    }),
    { numRuns: 5_000 },
  );
  expect(readWithLinesInSteps('a,b\r\n"x\ny",1\n\nz,2\n', 4).lines).toEqual([1, 2, 5]);
});

// A 10,000-row file is parsed a step at a time: other work runs before the rows are ready (issue 19).
test("a large CSV text is parsed over several turns of the event loop", async () => {
  const lines = ["title,description,status"];
  for (let row = 0; row < 10_000; row++)
    lines.push(`"Request ${row}","Text, with ""quotes"" and a comma",open`);
  let otherWorkRan = false;
  const parsing = parseCsv(lines.join("\r\n"));
  setImmediate(() => {
    otherWorkRan = true;
  });
  const { rows, lines: rowLines } = await parsing;
  expect(otherWorkRan).toBe(true);
  expect(rowLines[9_999]).toBe(10_001);
  expect(rows).toHaveLength(10_000);
  expect(rows[9_999]).toEqual({
    title: "Request 9999",
    description: 'Text, with "quotes" and a comma',
    status: "open",
  });
});
