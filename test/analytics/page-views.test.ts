import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { countPageViews, recordPageView, utcDay } from "../../src/analytics/service";
import { closeDatabase } from "../../src/db/connection";
import { openMigrated } from "../../src/db/migrate";
import { tempDir } from "../support/app";

const dir = tempDir();
const db = openMigrated({ databasePath: join(dir, "views.db"), cacheDir: join(dir, "cache") });
afterAll(() => {
  closeDatabase(db);
  rmSync(dir, { recursive: true, force: true });
});
const DAY = 86_400_000;

describe("page views", () => {
  test("are counted per project per UTC day, and summed from a day on", () => {
    for (const slug of ["one", "two"]) {
      db.query("INSERT INTO projects (id, slug, name, plan, created_at) VALUES (?, ?, ?, 'free', 0)").run(
        slug,
        slug,
        slug,
      );
    }
    const now = Date.UTC(2026, 10, 22, 12);
    recordPageView(db, "one", now);
    recordPageView(db, "one", now + 3_600_000);
    recordPageView(db, "one", now - 3 * DAY);
    recordPageView(db, "one", now - 10 * DAY);
    recordPageView(db, "two", now);
    expect(countPageViews(db, "one", now)).toBe(2);
    expect(countPageViews(db, "one", now - 7 * DAY)).toBe(3);
    expect(countPageViews(db, "one", now - 30 * DAY)).toBe(4);
    expect(countPageViews(db, "two", now - 30 * DAY)).toBe(1);
    expect(db.query("SELECT count(*) AS n FROM page_views WHERE project_id = 'one'").get()).toEqual({ n: 3 });
  });

  test("a day is the UTC date", () => {
    expect(utcDay(Date.UTC(2026, 0, 1, 23, 59))).toBe("2026-01-01");
  });
});
