// The csv rows the import benches send (bench/import.ts, bench/stalls.ts), shaped like an export of another
// board, with three bad rows the import must report and skip.
const STATUSES = ["PENDING", "APPROVED", "IN_PROGRESS", "COMPLETE"];

/** Indexes of the rows importRows(count) makes bad: no title, an unknown status, a negative vote count. */
export function badRowsOf(count: number): Set<number> {
  return new Set([99, Math.floor(count / 2), count - 1]);
}

export interface ImportRow {
  title: string;
  description: string;
  status: string;
  votes: number;
  tags: string;
  author_email: string;
  author_name: string;
  created_at: string;
  comments: string;
}

/** Rows like an export of another board: a few tags, a few hundred authors, some votes and comments. */
export function importRows(count: number): ImportRow[] {
  const start = Date.parse("2024-01-01T00:00:00Z");
  return Array.from({ length: count }, (_, index) => {
    const row: ImportRow = {
      title: `Imported request ${index}: make exports faster`,
      description: "Collected by the support team; several customers asked for it on calls.",
      status: STATUSES[index % STATUSES.length]!,
      votes: index % 4,
      tags: index % 3 === 0 ? "reports, performance" : `area-${index % 20}`,
      author_email: `customer${index % 500}@example.com`,
      author_name: `Customer ${index % 500}`,
      created_at: new Date(start + index * 60_000).toISOString(),
      comments: index % 5 === 0 ? "Me too\nWe need this for Q3" : "",
    };
    // Three bad rows: no title, an unknown status, a negative vote count.
    if (index === 99) row.title = "";
    if (index === Math.floor(count / 2)) row.status = "SOMEDAY";
    if (index === count - 1) row.votes = -1;
    return row;
  });
}

/** The same rows as a CSV text with a header, as a spreadsheet exports them (every field quoted). */
export function importCsv(rows: ImportRow[]): string {
  const columns = Object.keys(rows[0] ?? {}) as (keyof ImportRow)[];
  const quoted = (value: string | number) => `"${String(value).replaceAll('"', '""')}"`;
  return [
    columns.join(","),
    ...rows.map((row) => columns.map((column) => quoted(row[column])).join(",")),
  ].join("\r\n");
}
