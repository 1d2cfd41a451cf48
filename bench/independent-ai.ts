// The local AI's words graded on an independent held-out set (docs/ai.md, "Graded on an independent set"):
// test/fixtures/independent/ was written by someone who read none of the code, fixtures or docs, in ten
// domains no rule was written for. It is graded only, never tuned on: this prints figures, never failures.
//   1. titles of pasted feedback (from-text, as bench/from-text-titles.ts scores them);
//   2. summary themes of six boards: themes that name one of the board's real themes, themes that are its
//      audience or a generic word, and real themes found;
//   3. the sprint plan's effort: small and large requests recognised, and how many were called the wrong way.
// test/ai/independent.test.ts holds these figures at what they reached, less a margin.
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

export interface ThemeBoard {
  domain: string;
  posts: { title: string; description: string; votes: number }[];
  themes: { name: string; anyOf: string[] }[];
  notThemes: string[];
}

export interface SizedCase {
  title: string;
  description: string;
  effort: "small" | "large";
}

async function fixture<T>(name: string): Promise<T> {
  return (await Bun.file(
    new URL(`../test/fixtures/independent/${name}.json`, import.meta.url).pathname,
  ).json()) as T;
}

/** True when a word of `phrase` starts with `stem`, the way the title bench matches its words. */
export function startsAWord(phrase: string, stem: string): boolean {
  const escaped = stem.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}`, "u").test(phrase.toLowerCase());
}

export interface Count {
  right: number;
  total: number;
}

/** Titles of pasted feedback a product manager would accept. */
export async function gradeTitles(): Promise<Count> {
  const { items } = await fixture<{ items: TitleCase[] }>("titles");
  const right = items.filter((item) => titleProblem(item, localTitle(item.text)) === null).length;
  return { right, total: items.length };
}

export interface ThemeGrade {
  /** Reported themes that name one of their board's real themes. */
  naming: Count;
  /** Reported themes that are the board's audience, its product or a generic word. */
  audience: Count;
  /** Real themes named, of at most five a board. */
  found: Count;
  themesByBoard: { domain: string; themes: string[] }[];
}

/** The boards' summaries (a month of requests and votes), on a database of their own; the six independent ones by default. */
export async function gradeThemes(given?: ThemeBoard[]): Promise<ThemeGrade> {
  const boards = given ?? (await fixture<{ boards: ThemeBoard[] }>("themes")).boards;
  const dir = mkdtempSync(join(tmpdir(), "featureboard-independent-"));
  const ctx = createContext(
    loadConfig({ FEATUREBOARD_DB: join(dir, "independent.db"), FEATUREBOARD_LOG_LEVEL: "silent" }),
    createLogger("silent"),
  );
  const grade: ThemeGrade = {
    naming: { right: 0, total: 0 },
    audience: { right: 0, total: 0 },
    found: { right: 0, total: 0 },
    themesByBoard: [],
  };
  let voter = 0;
  try {
    for (const [index, board] of boards.entries()) {
      const { project } = createProject(ctx.db, {
        slug: `acme-${index}`,
        // A company's name, as a real project has: "Board" would take the word "board" out of every theme ("job boards").
        name: `Acme ${index}`,
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
      const named = new Set<string>();
      for (const theme of themes) {
        grade.naming.total++;
        grade.audience.total++;
        const real = board.themes.find((candidate) =>
          candidate.anyOf.some((stem) => startsAWord(theme, stem)),
        );
        if (board.notThemes.some((stem) => startsAWord(theme, stem))) grade.audience.right++;
        else if (real) {
          grade.naming.right++;
          named.add(real.name);
        }
      }
      grade.found.right += named.size;
      grade.found.total += Math.min(5, board.themes.length);
      grade.themesByBoard.push({ domain: board.domain, themes });
    }
  } finally {
    closeDatabase(ctx.db);
    rmSync(dir, { recursive: true, force: true });
  }
  return grade;
}

export interface EffortGrade {
  small: Count;
  large: Count;
  /** A small request called large, or a large one small. */
  wrongWay: number;
}

/** The sprint plan's reading of each request's size; the independent set's by default. */
export async function gradeEffort(given?: SizedCase[]): Promise<EffortGrade> {
  const items = given ?? (await fixture<{ items: SizedCase[] }>("effort")).items;
  const kindOf = (item: SizedCase) =>
    effortOf({ title: item.title, description: item.description || null }).kind;
  const small = items.filter((item) => item.effort === "small");
  const large = items.filter((item) => item.effort === "large");
  return {
    small: { right: small.filter((item) => kindOf(item) === "small").length, total: small.length },
    large: { right: large.filter((item) => kindOf(item) === "large").length, total: large.length },
    wrongWay:
      small.filter((item) => kindOf(item) === "large").length +
      large.filter((item) => kindOf(item) === "small").length,
  };
}

if (import.meta.main) {
  const ratio = ({ right, total }: Count) => `${right}/${total} = ${(right / total).toFixed(2)}`;
  console.log(`titles of pasted feedback   ${ratio(await gradeTitles())}`);
  const themes = await gradeThemes();
  for (const board of themes.themesByBoard) console.log(`  ${board.domain}: ${board.themes.join(" | ")}`);
  console.log(
    `summary themes              naming a real theme ${ratio(themes.naming)}, audience or generic ` +
      `${ratio(themes.audience)}, real themes found ${ratio(themes.found)}`,
  );
  const effort = await gradeEffort();
  console.log(
    `sprint-plan effort          small ${ratio(effort.small)}, large ${ratio(effort.large)}, ` +
      `the wrong way ${effort.wrongWay}`,
  );
}
