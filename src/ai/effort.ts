/** What the size of a request is judged from: its own words (docs/ai.md, "Endpoints"). */
export interface SizedRequest {
  title: string;
  description: string | null;
}

/**
 * Words that hint at a request's size, each a whole word: small touches (read in the title only: a
 * description mentions a button or a link in passing), and pieces of work that are never small (title or
 * description). "link", "default", "setting" and "filter" are not signs: "the invoice link", "a setting
 * to hide the footer" say nothing of the work.
 */
const SMALL_SIGNS =
  /\b(button|toggle|label|rename|sort(ing)?|shortcut|tooltip|colou?r|icon|placeholder|typo|font|text size|wording)\b/i;
const LARGE_SIGNS =
  /\b(integration|integrate|sync|migrat\w*|mobile app|android|ios|offline|permissions?|roles?|sso|saml|api|import|export|real[\s-]?time|multi[\s-]?\w+|workflow|automation|reporting|dashboard)\b/i;

/**
 * A request's size as its text shows it: a small change, a larger build, or unknown (a one-line request, or
 * a longer one whose size the text leaves unclear).
 */
type EffortKind = "small" | "one-line" | "unclear" | "large";

/**
 * How big a request looks from its text: a sign of a larger build (an integration, a mobile app, SSO…)
 * in its title, else of a small change (a button, a rename…) in its title, else of a larger build in its
 * description, else unknown. `units` ranks quick wins (1 is a small change; a request of unknown size
 * counts 2 + its length, since a longer request usually hides more work, so a known small one comes
 * first); `words` says why, as a product manager reads it. One estimate for both, so a plan never ranks as
 * quick what its reason calls large. A short text is no sign of a small change: "On-demand video" or
 * "Spanish translation" are one line each and weeks of work (docs/ai.md, "Endpoints").
 */
export function effortOf(post: SizedRequest): { kind: EffortKind; units: number; words: string } {
  const text = `${post.title} ${post.description ?? ""}`;
  const length = text.split(/\s+/).filter(Boolean).length;
  const byLength = 1 + length / 40;
  const large = LARGE_SIGNS.exec(post.title)?.[0];
  const small = SMALL_SIGNS.exec(post.title)?.[0];
  const described = LARGE_SIGNS.exec(post.description ?? "")?.[0];
  const largeSign = large ?? (small ? undefined : described);
  if (largeSign) {
    return {
      kind: "large",
      units: 3 + byLength,
      words: `likely a larger build (it involves ${largeSign.toLowerCase()})`,
    };
  }
  if (small) return { kind: "small", units: 1, words: `likely a small change (a ${small.toLowerCase()})` };
  if (length <= 12)
    return { kind: "one-line", units: byLength + 1, words: "size unknown (a one-line request)" };
  return {
    kind: "unclear",
    units: byLength + 1,
    words: `a ${length}-word request: size it before committing`,
  };
}
