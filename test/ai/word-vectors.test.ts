import { describe, expect, test } from "bun:test";
import { embedLocally } from "../../src/ai/local-embedder";
import { LOCAL_BOUNDARY } from "../../src/ai/local-provider";
import { calibrate } from "../../src/ai/provider";
import { DEFAULT_THRESHOLD } from "../../src/ai/service";
import { dot, seededRandom } from "../../src/ai/vectors";
import { pairSimilarity } from "../../src/ai/similarity";
import { onePlaceApart, terms } from "../../src/ai/text";
import { inVocabulary } from "../../src/ai/word-vectors";

// The local embedder's word vectors (docs/ai.md, "Word vectors"). None of these pairs is in a fixture.
const similarity = (a: string, b: string) =>
  calibrate(dot(embedLocally(a), embedLocally(b)), { boundary: LOCAL_BOUNDARY });

describe("local embeddings with word vectors", () => {
  test("requests in other words, with no phrase of the lexicon in common, are duplicates", () => {
    // Hashed features alone scored these 0.54 and 0.56.
    expect(
      similarity("Automatic translation of incoming tickets", "Machine translate customer messages"),
    ).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(similarity("Print shipping labels", "Generate postage labels for parcels")).toBeGreaterThanOrEqual(
      DEFAULT_THRESHOLD,
    );
  });

  test("opposites that general English puts together stay apart", () => {
    for (const [a, b] of [
      ["Export to CSV", "Import from CSV"],
      ["Dark mode", "Light mode"],
      ["Android app", "iOS app"],
    ] as const) {
      expect(similarity(a, b)).toBeLessThan(DEFAULT_THRESHOLD);
    }
  });

  test("the lexicon's concepts still join their phrasings, words it does not know included", () => {
    expect(similarity("Dark mode", "Night theme for the app")).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(similarity("Two-factor authentication", "2FA login")).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });

  test("misspelt words are mended from the vocabulary; names written with capitals are not", () => {
    // Without mending these scored 0.00–0.84.
    for (const [a, b] of [
      ["Calendar integration", "Calendar intergration"],
      ["Keyboard shortcuts", "Keybaord shortcuts"],
      ["Bulk edit invoices", "Bulk edit invoces"],
      ["Notifications when permissions change", "notfications when permisions change"],
    ] as const) {
      expect(similarity(a, b)).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    }
    // "Figma" is one edit from "sigma", "Zapier" from "napier": written with a capital, so never mended.
    expect(similarity("Figma", "sigma")).toBeLessThan(DEFAULT_THRESHOLD);
    expect(similarity("Zapier", "napier")).toBeLessThan(DEFAULT_THRESHOLD);
  });

  test("the general product vocabulary joins what requests call one thing, and a verb stays a verb", () => {
    // Before it (local-hash-v4) these scored 0.65, 0.12, 0.16 and 0.05.
    for (const [a, b] of [
      ["Sprint planning board", "Iteration planning"],
      ["Vacation tracking", "Time off requests"],
      ["Knowledge base", "Help center articles"],
      ["Subtasks", "Checklists inside a card"],
    ] as const) {
      expect(similarity(a, b)).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    }
    // "trigger" is a verb here, not the automation feature (folded, this pair scored 0.73).
    expect(similarity("Trigger a webhook when a post changes", "Automate tagging of new posts")).toBeLessThan(
      DEFAULT_THRESHOLD,
    );
  });

  test("an inflection of a vocabulary word is a word, not a misspelling", () => {
    // Mended, "statuses" became "statues" and "theming" became "teeming".
    expect(terms("Custom statuses")).toEqual(["custom", "status"]);
    expect(terms("Theming")).toEqual(["color"]);
    expect(terms("Recurring to-dos")).toEqual(["recurring", "task"]);
  });

  test("the lexicon's words meet whatever their inflection", () => {
    // "removed" kept a term of its own ("remov") while "deleted" became "remove"; "palette" and
    // "personalised" missed their entries (their stems are "palet" and "personalis").
    expect(terms("Restore removed items")).toContain("remove");
    expect(terms("deleted")).toEqual(terms("removed"));
    expect(terms("Colour palette")).toEqual(["color", "color"]);
    expect(terms("Personalised dashboards")).toEqual(["custom", "dashboard"]);
  });

  test("made-up words are never taken for vocabulary words whose hash they share", () => {
    // Spelling repair looks up hundreds of made-up candidates per word; by the 32-bit hash alone about 4 of
    // these 300,000 strings would meet a vocabulary word's hash (word-vector-format.ts, wordCheck).
    const random = seededRandom(18);
    const found: string[] = [];
    for (let i = 0; i < 300_000; i++) {
      let word = "q";
      for (let letter = 0; letter < 8; letter++) word += String.fromCharCode(97 + Math.floor(random() * 26));
      if (inVocabulary(word)) found.push(word);
    }
    expect(found).toEqual([]);
  });

  test("words outside the vocabulary still embed; a text of stopwords only is like nothing", () => {
    const unknown = embedLocally("zorbl quux");
    expect(Math.abs(dot(unknown, unknown) - 1)).toBeLessThan(1e-5);
    expect(similarity("zorbl quux", "quux zorbl")).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(embedLocally("please add it").every((value) => value === 0)).toBe(true);
  });
});

describe("titles one place apart", () => {
  test("two titles alike but for one place, a word or a few, ask for two things", () => {
    for (const [a, b] of [
      ["Export to CSV", "Export to PDF"],
      ["Dark mode for the editor", "Dark mode for the emails"],
      ["Comments on invoices", "Comments on quotes"],
      ["Archive old projects", "Archive old channels"],
      ["Hosting in the US", "Hosting in the EU"],
      ["Filter tasks by assignee name", "Filter tasks by due date"],
      ["Weekly summary sent to the owner", "Weekly summary posted in a channel"],
    ] as const)
      expect([a, b, onePlaceApart(terms(a), terms(b))]).toEqual([a, b, true]);
  });

  test("a synonym is the same word; another wording, a longer title, a moved word, or words in common fewer than those that differ is not one place apart", () => {
    for (const [a, b] of [
      ["Dark mode for the editor", "Night theme for the editor"],
      ["Export to CSV", "Download as a spreadsheet"],
      ["Mention people", "Mention people in task titles"],
      ["Email me a digest", "A digest by email"],
      ["Kanban", "Boards"],
      ["Night theme in the IDE", "Dark mode for our code editing tool"],
    ] as const)
      expect([a, b, onePlaceApart(terms(a), terms(b))]).toEqual([a, b, false]);
  });

  test("their similarity keeps 0.8 of the vectors': a close pair falls under the duplicate threshold", () => {
    const a = "Comments on invoices";
    const b = "Comments on quotes";
    expect(similarity(a, b)).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(pairSimilarity(similarity(a, b), terms(a), terms(b))).toBeCloseTo(0.8 * similarity(a, b), 10);
    expect(pairSimilarity(similarity(a, b), terms(a), terms(b))).toBeLessThan(DEFAULT_THRESHOLD);
    const reworded = "Leave a comment on any invoice we send";
    expect(pairSimilarity(similarity(a, reworded), terms(a), terms(reworded))).toBe(similarity(a, reworded));
  });
});
