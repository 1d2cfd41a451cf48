// The local AI's words graded on an independent held-out set (docs/ai.md, "Graded on an independent set"):
// test/fixtures/independent/ was written by someone who read none of the code, fixtures or docs, in ten
// domains no rule was written for. It is graded only, never tuned on: this prints figures, never failures.
//   1. titles of pasted feedback (from-text, as bench/from-text-titles.ts scores them);
//   2. summary themes of six boards: themes that name one of the board's real themes, themes that are its
//      audience or a generic word, and real themes found;
//   3. the sprint plan's effort: small and large requests recognised, and how many were called the wrong way.
//
//   npx bun bench/independent-ai.ts

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { effortOf } from "../src/ai/effort";
import { summariseFeedback } from "../src/ai/service";
import { loadConfig } from "../src/config";
import { closeDatabase } from "../src/db/connection";
import { createLogger } from "../src/log";
import { createPost } from "../src/posts/service";
import { createProject } from "../src/projects/service";
import { createContext } from "../src/server";
import { upsertUserByEmail } from "../src/users/service";
import { castVote } from "../src/votes/service";
import { localTitle, type TitleCase, titleProblem } from "./from-text-titles";

const fixture = (name: string) =>
  new URL(`../test/fixtures/independent/${name}.json`, import.meta.url).pathname;

interface ThemeBoard {
  domain: string;
  posts: { title: string; description: string; votes: number }[];
  themes: { name: string; anyOf: string[] }[];
  notThemes: string[];
}

interface SizedCase {
  title: string;
  description: string;
  effort: "small" | "large";
}

/** True when a word of `phrase` starts with `stem`, the way the title bench matches its words. */
function startsAWord(phrase: string, stem: string): boolean {
  const escaped = stem.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}`, "u").test(phrase.toLowerCase());
}

const ratio = (right: number, total: number) => `${right}/${total} = ${(right / total).toFixed(2)}`;

const titles = ((await Bun.file(fixture("titles")).json()) as { items: TitleCase[] }).items;
const rightTitles = titles.filter((item) => titleProblem(item, localTitle(item.text)) === null).length;
console.log(`titles of pasted feedback   ${ratio(rightTitles, titles.length)}`);

const dir = mkdtempSync(join(tmpdir(), "featureboard-independent-"));
const ctx = createContext(
  loadConfig({ FEATUREBOARD_DB: join(dir, "independent.db"), FEATUREBOARD_LOG_LEVEL: "silent" }),
  createLogger("silent"),
);
const boards = ((await Bun.file(fixture("themes")).json()) as { boards: ThemeBoard[] }).boards;
let reported = 0;
let named = 0;
let audience = 0;
let found = 0;
let findable = 0;
let voter = 0;
for (const [index, board] of boards.entries()) {
  const { project } = createProject(ctx.db, {
    slug: `board-${index}`,
    name: `Board ${index}`,
    plan: "growth",
  });
  for (const item of board.posts) {
    const post = createPost(ctx.db, project.id, {
      title: item.title,
      description: item.description || null,
      status: "APPROVED",
    });
    for (let vote = 0; vote < item.votes; vote++) {
      const { user } = upsertUserByEmail(ctx.db, project.id, { email: `voter${voter++}@example.com` });
      castVote(ctx.db, project.id, post.id, { boardUserId: user.id });
    }
  }
  const { top_themes: themes } = await summariseFeedback(ctx.ai, project.id, { period: "month" });
  const realThemes = new Set<string>();
  for (const theme of themes) {
    reported++;
    const generic = board.notThemes.some((stem) => startsAWord(theme, stem));
    const real = board.themes.find((candidate) => candidate.anyOf.some((stem) => startsAWord(theme, stem)));
    if (generic) audience++;
    else if (real) {
      named++;
      realThemes.add(real.name);
    }
  }
  found += realThemes.size;
  findable += Math.min(5, board.themes.length);
  console.log(`  ${board.domain}: ${themes.join(" | ")}`);
}
console.log(
  `summary themes              naming a real theme ${ratio(named, reported)}, audience or generic ` +
    `${ratio(audience, reported)}, real themes found ${ratio(found, findable)}`,
);
closeDatabase(ctx.db);
rmSync(dir, { recursive: true, force: true });

const sized = ((await Bun.file(fixture("effort")).json()) as { items: SizedCase[] }).items;
const kindOf = (item: SizedCase) =>
  effortOf({ title: item.title, description: item.description || null }).kind;
const small = sized.filter((item) => item.effort === "small");
const large = sized.filter((item) => item.effort === "large");
const wrongWay =
  small.filter((item) => kindOf(item) === "large").length +
  large.filter((item) => kindOf(item) === "small").length;
console.log(
  `sprint-plan effort          small ${ratio(small.filter((item) => kindOf(item) === "small").length, small.length)}, ` +
    `large ${ratio(large.filter((item) => kindOf(item) === "large").length, large.length)}, the wrong way ${wrongWay}`,
);
