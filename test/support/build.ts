// The one build command: `npm run build` in package.json. The binary test (when it builds its own) and the
// start-up bench (for its bare-app baseline) compile with exactly those flags, so what they measure is what
// ships.
import { readFileSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url).pathname;

/** `bun build …` as package.json's build script has it, for another entry point and output file. */
export function compileCommand(entry: string, outfile: string): string[] {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
    scripts: { build: string };
  };
  const words = scripts.build.split(/\s+/);
  if (words[0] !== "bun" || !words.includes("src/binary.ts") || !words.includes("--outfile")) {
    throw new Error(`unexpected build script: ${scripts.build}`);
  }
  const args = words.slice(1).map((word) => (word === "src/binary.ts" ? entry : word));
  args[args.indexOf("--outfile") + 1] = outfile;
  return [process.execPath, ...args];
}
