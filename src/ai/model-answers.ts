/**
 * Reading what OpenAI-compatible model servers answer (docs/ai.md, "What the openai provider reads"):
 * chat completions from reasoning and JSON-mode models (fences, think blocks, prose around the JSON,
 * trailing commas, text in `reasoning_content`, a stream nobody asked for) and embeddings (flat, finite,
 * non-zero, one per input, one dimension). What cannot be read fails in the service's words, never in a
 * JavaScript engine's.
 */
import { ApiError } from "../http/errors";
import type { Embedded } from "./provider";
import { vectorProblem } from "./vectors";

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An answer that will read the same next time: UPSTREAM_ERROR with retry false, so the workflows answer
 * with the local provider instead (service.ts `wordsFrom`).
 */
export function unreadableAnswer(detail: string): ApiError {
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider failed: ${detail}`,
    "Check that OPENAI_BASE_URL serves an OpenAI-compatible API and that FEATUREBOARD_CHAT_MODEL answers JSON.",
    { retry: false },
  );
}

/** The first characters of a text, on one line, for a message or a log. */
export function excerpt(text: string, length = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= length ? line : `${line.slice(0, length)}…`;
}

const NOT_A_COMPLETION = "the model server's answer was not an OpenAI-style chat completion";

/** The text of a message's `content`: a string, or (some servers) a list of `{type: "text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (isRecord(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
}

/** Reasoning models (DeepSeek, Qwen on vLLM or LM Studio) put their text here when `content` is empty. */
function reasoningText(message: Record<string, unknown>): string {
  for (const key of ["reasoning_content", "reasoning"]) {
    const value = message[key];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return "";
}

/** A streamed reply (server-sent events) put back together: the concatenated `delta` texts. */
function streamedText(body: string): string | null {
  let content = "";
  let reasoning = "";
  let chunks = 0;
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "[DONE]") continue;
    const chunk = parseJson(data);
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) continue;
    chunks++;
    const choice: unknown = chunk.choices[0];
    if (!isRecord(choice) || !isRecord(choice.delta)) continue;
    content += contentText(choice.delta.content);
    reasoning += reasoningText(choice.delta);
  }
  if (chunks === 0) return null;
  return content.trim() !== "" ? content : reasoning;
}

/**
 * The text a chat completion answered. `body` is what the SDK parsed: an object for JSON, a string for
 * anything else (a stream, an HTML login page of a proxy).
 */
export function completionText(body: unknown): string {
  if (typeof body === "string") {
    const streamed = streamedText(body);
    if (streamed !== null) {
      if (streamed.trim() === "") throw unreadableAnswer("the model's streamed answer was empty");
      return streamed;
    }
    throw unreadableAnswer(
      body.trim() === ""
        ? `${NOT_A_COMPLETION} (it was empty)`
        : `${NOT_A_COMPLETION} (it was text, not JSON: "${excerpt(body)}")`,
    );
  }
  if (!isRecord(body)) throw unreadableAnswer(`${NOT_A_COMPLETION} (not a JSON object)`);
  if (!Array.isArray(body.choices) || body.choices.length === 0)
    throw unreadableAnswer(`${NOT_A_COMPLETION} (no choices)`);
  const choice: unknown = body.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message))
    throw unreadableAnswer(`${NOT_A_COMPLETION} (no message in its first choice)`);
  const message = choice.message;
  const content = contentText(message.content);
  if (content.trim() !== "") return content;
  const reasoning = reasoningText(message);
  if (reasoning !== "") return reasoning;
  if (typeof message.refusal === "string" && message.refusal !== "")
    throw unreadableAnswer(`the model refused: "${excerpt(message.refusal, 200)}"`);
  throw unreadableAnswer(
    choice.finish_reason === "length"
      ? "the model ran out of tokens before it answered (finish_reason length)"
      : "the model's answer was empty",
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** JSON as models write it by hand: comments and trailing commas removed (outside strings), then parsed. */
function parseLenient(text: string): unknown {
  const strict = parseJson(text);
  if (strict !== undefined) return strict;
  return parseJson(withoutCommentsOrTrailingCommas(text));
}

/** The text without its comments and trailing commas, in one pass that keeps every string as written. */
function withoutCommentsOrTrailingCommas(text: string): string {
  let kept = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      const end = stringEnd(text, index);
      kept += text.slice(index, end);
      index = end;
      continue;
    }
    const afterComment = commentEnd(text, index);
    if (afterComment !== index) index = afterComment;
    else if (char === "," && closesNext(text, index + 1)) index++;
    else {
      kept += char;
      index++;
    }
  }
  return kept;
}

/** The index just after a `//` or `/* … *\/` comment opening at `index`, or `index` when none opens there. */
function commentEnd(text: string, index: number): number {
  if (text[index] !== "/") return index;
  if (text[index + 1] === "/") {
    const lineEnd = text.indexOf("\n", index);
    return lineEnd === -1 ? text.length : lineEnd;
  }
  if (text[index + 1] === "*") {
    const close = text.indexOf("*/", index + 2);
    return close === -1 ? text.length : close + 2;
  }
  return index;
}

/** Whether the next thing from `from` on, past spaces and comments, closes an object or an array. */
function closesNext(text: string, from: number): boolean {
  let next = from;
  for (;;) {
    while (next < text.length && /\s/.test(text[next]!)) next++;
    const afterComment = commentEnd(text, next);
    if (afterComment === next) break;
    next = afterComment;
  }
  return text[next] === "}" || text[next] === "]";
}

/** The index just after the JSON string that opens at `start` (a `"`), escapes respected. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    if (text[index] === "\\") index += 2;
    else if (text[index] === '"') return index + 1;
    else index++;
  }
  return text.length;
}

/** The end (exclusive) of the object that opens at `start` (a `{`), or -1 when it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let index = start;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      index = stringEnd(text, index);
      continue;
    }
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index + 1;
    index++;
  }
  return -1;
}

/** Objects tried per text: a model's prose rarely holds more braces than this before its JSON. */
const OBJECTS_TRIED = 20;

function firstObjectIn(text: string): Record<string, unknown> | null {
  let start = text.indexOf("{");
  for (let tried = 0; start !== -1 && tried < OBJECTS_TRIED; tried++) {
    const end = objectEnd(text, start);
    // A brace of the prose that never closes ("use {braces"): the JSON may start at a later one.
    const value = end === -1 ? undefined : parseLenient(text.slice(start, end));
    if (isRecord(value)) return value;
    start = text.indexOf("{", start + 1);
  }
  return null;
}

/**
 * The JSON object a model answered, however wrapped: a leading `<think>…</think>` block, ```json fences,
 * prose before or after ("Sure! Here is the JSON: {…}"), comments and trailing commas. Unreadable →
 * UPSTREAM_ERROR with retry false (the same answer would come back).
 */
export function jsonObjectIn(answer: string): Record<string, unknown> {
  const unthought = answer.replace(/<think>[\s\S]*?(<\/think>|$)/gi, "").trim();
  const candidates = [unthought, answer];
  for (const text of candidates) {
    const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
    const found = (fenced ? firstObjectIn(fenced[1]!) : null) ?? firstObjectIn(text);
    if (found) return found;
  }
  throw unreadableAnswer(`the model's answer held no JSON object: "${excerpt(answer)}"`);
}

/** A string field cut to `max` characters, or null when it is absent or not text. */
export function textField(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1).trimEnd()}…`;
}

/** A list of strings: at most `maxItems`, each cut to `maxChars`; a lone string is a list of one. */
export function textList(value: unknown, maxItems: number, maxChars: number): string[] {
  const items: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  const texts: string[] = [];
  for (const item of items) {
    const text = textField(item, maxChars);
    if (text) texts.push(text);
    if (texts.length === maxItems) break;
  }
  return texts;
}

/**
 * The project's labels among those a model chose, matched without regard to case or surrounding space
 * ("mobile" is the project's "Mobile"), each once, at most `max`.
 */
export function projectLabels(chosen: unknown, projectLabelsList: string[], max: number): string[] {
  const byKey = new Map(projectLabelsList.map((label) => [label.trim().toLowerCase(), label]));
  const labels = new Set<string>();
  for (const item of Array.isArray(chosen) ? chosen : typeof chosen === "string" ? [chosen] : []) {
    const label = typeof item === "string" ? byKey.get(item.trim().toLowerCase()) : undefined;
    if (label !== undefined) labels.add(label);
    if (labels.size === max) break;
  }
  return [...labels];
}

// ---- embeddings ----

function invalidEmbeddings(detail: string): ApiError {
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider answered invalid embeddings: ${detail}`,
    "Retry later; if it persists, check that FEATUREBOARD_EMBED_MODEL is an embedding model the server at OPENAI_BASE_URL serves.",
    { retry: true },
  );
}

/**
 * Vectors of another dimension than the same model's earlier ones: the server serves another model now
 * (llama.cpp and LM Studio embed with whatever model is loaded). Refused once, saying so; the provider
 * then takes the new dimension, and the index is rebuilt for it (AiRuntime.adoptDimension).
 */
export function dimensionChanged(before: number, now: number): ApiError {
  return invalidEmbeddings(
    `${now} dimensions where this model's earlier vectors had ${before}: the model the server serves changed`,
  );
}

/**
 * The vectors of an embeddings answer, in input order. The answer as a whole must hold one flat list of
 * numbers per input, all of one dimension, or the call fails (retryable: a server's fault). A vector that
 * is all zeros or holds a value that is not a finite number is that input's alone: it is `{rejected}`, so
 * the others are stored and the post whose text gave it is set aside instead of failing its batch forever
 * (docs/ai.md, "Vectors the index refuses").
 */
export function embeddingVectors(body: unknown, inputs: number): Embedded[] {
  if (!isRecord(body) || !Array.isArray(body.data))
    throw invalidEmbeddings(
      typeof body === "string"
        ? `not an OpenAI-style embeddings answer (it was text, not JSON: "${excerpt(body)}")`
        : "not an OpenAI-style embeddings answer (no data)",
    );
  if (body.data.length !== inputs)
    throw invalidEmbeddings(`${body.data.length} embeddings for ${inputs} inputs`);
  const vectors: Float32Array[] = new Array<Float32Array>(inputs);
  body.data.forEach((item: unknown, position: number) => {
    const index = isRecord(item) && typeof item.index === "number" ? item.index : position;
    const at = `embedding ${index}`;
    if (!Number.isInteger(index) || index < 0 || index >= inputs || vectors[index])
      throw invalidEmbeddings(`${at}: its index is not one of the inputs' or comes twice`);
    const values = isRecord(item) ? item.embedding : undefined;
    if (!Array.isArray(values)) throw invalidEmbeddings(`${at} is ${values === null ? "null" : "missing"}`);
    if (values.length === 0) throw invalidEmbeddings(`${at} is empty`);
    if (!values.every((value: unknown) => typeof value === "number"))
      throw invalidEmbeddings(`${at} is not a flat list of numbers`);
    vectors[index] = Float32Array.from(values.filter((value: unknown) => typeof value === "number"));
  });
  const other = vectors.find((vector) => vector.length !== vectors[0]!.length);
  if (other)
    throw invalidEmbeddings(`vectors of ${vectors[0]!.length} and ${other.length} dimensions in one answer`);
  return vectors.map((vector, index): Embedded => {
    const problem = vectorProblem(vector);
    return problem === null ? vector : { rejected: `embedding ${index}: ${problem}`, kind: "unusable" };
  });
}

/**
 * A search's query whose vector the server answered unusable (zeros, not a number): the same text would
 * answer the same, so not retryable; from-text and triage then go on without a duplicate check.
 */
export function unusableQueryVector(reason: string): ApiError {
  return new ApiError(
    "UPSTREAM_ERROR",
    `The AI provider answered invalid embeddings: ${reason}`,
    "Reword the text; if every text fails so, check that FEATUREBOARD_EMBED_MODEL is an embedding model the server at OPENAI_BASE_URL serves.",
    { retry: false },
  );
}
