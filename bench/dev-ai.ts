// The local AI's summary themes and sprint-plan effort on development sets (test/fixtures/dev-themes.json,
// dev-effort.json), written by someone who read none of the code, in domains the independent set does not
// cover. Unlike bench/independent-ai.ts this prints what goes wrong, item by item: it is the set rules are
// written from. Its figures say how well the rules fit; the independent set says how well they generalise.
//
//   npx bun bench/dev-ai.ts

import {
  type Count,
  gradeEffort,
  gradeThemes,
  type SizedCase,
  startsAWord,
  type ThemeBoard,
} from "./independent-ai";
import { effortOf } from "../src/ai/effort";

const fixture = async <T>(name: string) =>
  (await Bun.file(new URL(`../test/fixtures/${name}.json`, import.meta.url).pathname).json()) as T;
const ratio = ({ right, total }: Count) => `${right}/${total} = ${(right / total).toFixed(2)}`;

const { boards } = await fixture<{ boards: ThemeBoard[] }>("dev-themes");
const themes = await gradeThemes(boards);
for (const [index, board] of themes.themesByBoard.entries()) {
  const { themes: real, notThemes } = boards[index]!;
  const verdict = (theme: string) =>
    notThemes.some((stem) => startsAWord(theme, stem))
      ? "AUDIENCE"
      : (real.find((candidate) => candidate.anyOf.some((stem) => startsAWord(theme, stem)))?.name ?? "none");
  console.log(`${board.domain}:`);
  for (const theme of board.themes) console.log(`    ${theme.padEnd(28)} ${verdict(theme)}`);
  const missed = real.filter(
    (candidate) => !board.themes.some((theme) => candidate.anyOf.some((stem) => startsAWord(theme, stem))),
  );
  if (missed.length > 0) console.log(`    missed: ${missed.map((candidate) => candidate.name).join("; ")}`);
}
console.log(
  `summary themes    naming a real theme ${ratio(themes.naming)}, audience or generic ${ratio(themes.audience)}, ` +
    `real themes found ${ratio(themes.found)}`,
);

const { items } = await fixture<{ items: SizedCase[] }>("dev-effort");
for (const item of items) {
  const kind = effortOf({ title: item.title, description: item.description || null }).kind;
  if (kind !== item.effort) console.log(`  ${item.effort} read as ${kind}: ${item.title}`);
}
const effort = await gradeEffort(items);
console.log(
  `effort            small ${ratio(effort.small)}, large ${ratio(effort.large)}, the wrong way ${effort.wrongWay}`,
);
