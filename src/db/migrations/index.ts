// Every migration, in order. Imported as text so the compiled binary carries them; a test checks that
// each .sql file in this folder is listed here. A landed migration is never edited: add the next number.
import foundation from "./0001_foundation.sql" with { type: "text" };
import tags from "./0002_tags.sql" with { type: "text" };
import board from "./0003_board.sql" with { type: "text" };
import pageViews from "./0004_page_views.sql" with { type: "text" };
import releases from "./0005_releases.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: "0001_foundation", sql: foundation },
  { version: 2, name: "0002_tags", sql: tags },
  { version: 3, name: "0003_board", sql: board },
  { version: 4, name: "0004_page_views", sql: pageViews },
  { version: 5, name: "0005_releases", sql: releases },
];
