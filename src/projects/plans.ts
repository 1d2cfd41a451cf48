import { ApiError } from "../http/errors";
import { PLANS, type Plan, type Project } from "./schema";

/**
 * The plan from which the gated features work: AI workflows, from-text and the payments sync
 * (docs/decisions.md, "Keys, projects, plans"). The dashboard's Settings says so from this one value.
 */
export const GATED_FROM: Plan = "growth";

export function planAtLeast(plan: Plan, required: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(required);
}

/** AI workflows, from-text and the payments sync need `growth` or higher (docs/decisions.md, "Keys, projects, plans"). */
export function requirePlan(project: Project, required: Plan, feature: string): void {
  if (planAtLeast(project.plan, required)) return;
  throw new ApiError(
    "PLAN_UPGRADE_REQUIRED",
    `${feature} requires the ${required} plan or higher; this project is on ${project.plan}`,
    `Upgrade the project to the ${required} plan: featureboard project set-plan ${project.slug} ${required}`,
  );
}
