/**
 * CSV as RFC 4180 writes it, and as spreadsheets export it: fields separated by commas, records by CRLF or
 * LF, a field in double quotes may hold commas, line breaks and doubled quotes (""). The first record is
 * the header; its names are trimmed and lower-cased. A leading byte-order mark is ignored.
 */
export class CsvError extends Error {}

/** Parses all records, each an array of field strings. */
export function parseCsvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const endField = () => {
    record.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    // A blank line is no record.
    if (!(record.length === 1 && record[0] === "")) records.push(record);
    record = [];
  };
  while (index < text.length) {
    const char = text[index]!;
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
  return records;
}

/** Parses a CSV text with a header into one object per data record, keyed by the header's names. */
export function parseCsv(text: string): Record<string, string>[] {
  const [header, ...records] = parseCsvRecords(text);
  if (!header) return [];
  const names = header.map((name) => name.trim().toLowerCase());
  return records.map((fields) => {
    const row: Record<string, string> = {};
    names.forEach((name, column) => {
      if (name !== "" && fields[column] !== undefined) row[name] = fields[column]!;
    });
    return row;
  });
}
