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
  /** Branding (docs/dashboard.md): a #rrggbb accent colour, or null for the default. */
  accentColor: string | null;
  /** When the logo was last set (ms), a cache-busting version for its URL; null without a logo. */
  logoVersion: number | null;
  createdAt: string;
}

/** Logos are raster images of at most LOGO_MAX_BYTES; SVG is refused (it can carry script). */
export const LOGO_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 256 * 1024;
export const ACCENT_PATTERN = /^#[0-9a-f]{6}$/;

export type KeyKind = "secret" | "publishable";

export const KEY_PREFIX: Record<KeyKind, string> = { secret: "sk_", publishable: "pk_" };
