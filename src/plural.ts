/** "1 vote", "3 votes": a count with its word, for every page and text that shows one. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
