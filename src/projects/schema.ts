import { Enum } from "../http/schemas";
import { LIMITS } from "../http/limits";

export const PLANS = ["free", "starter", "growth", "business"] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = Enum(PLANS);

export const SLUG_PATTERN = new RegExp(`^[a-z0-9-]{${LIMITS.slugMinLength},${LIMITS.slugMaxLength}}$`);

export interface Project {
  id: string;
  slug: string;
  name: string;
  plan: Plan;
  isPublic: boolean;
  createdAt: string;
}

export type KeyKind = "secret" | "publishable";

export const KEY_PREFIX: Record<KeyKind, string> = { secret: "sk_", publishable: "pk_" };
