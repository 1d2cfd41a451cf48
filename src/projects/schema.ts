import { Enum } from "../http/schemas";

export const PLANS = ["free", "starter", "growth", "business"] as const;
export type Plan = (typeof PLANS)[number];
export const PlanSchema = Enum(PLANS);

export const SLUG_PATTERN = /^[a-z0-9-]{2,48}$/;

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
