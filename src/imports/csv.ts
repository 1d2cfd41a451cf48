import { nextTurn } from "../turns";

/**
 * CSV as RFC 4180 writes it, and as spreadsheets export it: fields separated by commas, records by CRLF or
 * LF, a field in double quotes may hold commas, line breaks and doubled quotes (""). The first record is
 * the header; its names are trimmed and lower-cased. A leading byte-order mark is ignored.
 */
export class CsvError extends Error {}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

function newlinesBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/**
 * Reads records a part at a time: `read(until)` reads fields until it has passed `until` characters
 * or the text ends, and says whether it ended; `records` holds the records completed so far, and
 * `recordLines` the 1-based line of the text each of them starts on (a quoted field may hold line breaks,
 * and blank lines are no records, so a record's position does not give its line). A field is cut
 * with `slice`, not built a character at a time: that took 66-115 ms for a 2 MB file (issue 19).
 */
export function csvReader(text: string): {
  read(until: number): boolean;
  records: string[][];
  recordLines: number[];
} {
  const records: string[][] = [];
  const recordLines: number[] = [];
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let recordLine = 1;
  let record: string[] = [];
  const endRecord = () => {
    // A blank line is no record.
    if (!(record.length === 1 && record[0] === "")) {
      records.push(record);
      recordLines.push(recordLine);
    }
    record = [];
  };
  return {
    records,
    recordLines,
    read(until) {
      while (index < text.length) {
        if (index >= until) return false;
        if (record.length === 0) recordLine = line;
        let field: string;
        if (text.charCodeAt(index) === QUOTE) {
          field = "";
          for (let from = index + 1; ;) {
            const quote = text.indexOf('"', from);
            line += newlinesBetween(text, from, quote === -1 ? text.length : quote);
            if (quote === -1) throw new CsvError(`line ${line}: a quoted field is never closed`);
            field += text.slice(from, quote);
            if (text.charCodeAt(quote + 1) === QUOTE) {
              field += '"';
              from = quote + 2;
              continue;
            }
            index = quote + 1;
            break;
          }
          const next = text.charCodeAt(index);
          if (index < text.length && next !== COMMA && next !== LF && next !== CR) {
            throw new CsvError(`line ${line}: a closing quote must end its field`);
          }
        } else {
          const start = index;
          for (; index < text.length; index++) {
            const char = text.charCodeAt(index);
            if (char === COMMA || char === LF || char === CR) break;
          }
          field = text.slice(start, index);
        }
        record.push(field);
        const after = text.charCodeAt(index);
        if (after === COMMA) {
          index++;
          // A comma at the very end leaves one more, empty, field.
          if (index === text.length) {
            record.push("");
            endRecord();
          }
        } else if (after === LF || after === CR) {
          index += after === CR && text.charCodeAt(index + 1) === LF ? 2 : 1;
          line++;
          endRecord();
        } else endRecord();
      }
      return true;
    },
  };
}

/**
 * Characters of CSV read per turn of the event loop, with the rows they hold: ~1-2 ms, so a 10,000-row
 * import's parse never holds other requests for long (issue 19).
 */
const CSV_STEP = 128 * 1024;

/** A CSV's data records as objects keyed by the header's names, and the line of the text each starts on. */
export interface CsvRows {
  rows: Record<string, string>[];
  lines: number[];
}

/**
 * Parses a CSV text with a header into one object per data record, keyed by the header's names, a step
 * at a time with the event loop free between steps.
 */
export async function parseCsv(text: string): Promise<CsvRows> {
  const reader = csvReader(text);
  const rows: Record<string, string>[] = [];
  const lines: number[] = [];
  let names: string[] | null = null;
  for (let until = CSV_STEP; ; until += CSV_STEP) {
    const ended = reader.read(until);
    const recordLines = reader.recordLines.splice(0);
    for (const [at, fields] of reader.records.splice(0).entries()) {
      if (!names) {
        names = fields.map((name) => name.trim().toLowerCase());
        continue;
      }
      const row: Record<string, string> = {};
      names.forEach((name, column) => {
        if (name !== "" && fields[column] !== undefined) row[name] = fields[column]!;
      });
      rows.push(row);
      lines.push(recordLines[at]!);
    }
    if (ended) return { rows, lines };
    await nextTurn();
  }
}

/**
 * Records as CSV text, as csvReader reads it back: a field with a comma, a quote or a line break is quoted
 * (its quotes doubled); records end with CRLF, as RFC 4180 and spreadsheets write them.
 */
export function csvText(records: readonly (readonly string[])[]): string {
  const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return records.map((record) => record.map(field).join(",") + "\r\n").join("");
}
