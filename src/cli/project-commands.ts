import { parseArgs } from "node:util";
import type { Db } from "../db/connection";
import { type KeyKind, PLANS, type Plan } from "../projects/schema";
import {
  createKey,
  createProject,
  listKeys,
  listProjects,
  renameKey,
  revokeKey,
  setProjectPlan,
} from "../projects/service";
import { UsageError } from "./usage";

type Print = (line: string) => void;

function plan(value: string | undefined): Plan | undefined {
  if (value === undefined) return undefined;
  if (!(PLANS as readonly string[]).includes(value))
    throw new UsageError(`plan must be one of ${PLANS.join(", ")}`);
  return value as Plan;
}

export function projectCommand(args: string[], db: Db, print: Print): number {
  const [sub, ...rest] = args;
  if (sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: {
        slug: { type: "string" },
        name: { type: "string" },
        plan: { type: "string" },
        private: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
    });
    if (!values.slug) throw new UsageError("project create needs --slug");
    const created = createProject(db, {
      slug: values.slug,
      ...(values.name ? { name: values.name } : {}),
      ...(values.plan ? { plan: plan(values.plan) } : {}),
      isPublic: !values.private,
    });
    if (values.json) {
      print(
        JSON.stringify({
          projectId: created.project.id,
          slug: created.project.slug,
          plan: created.project.plan,
          secretKey: created.secretKey,
          publishableKey: created.publishableKey,
        }),
      );
    } else {
      print(`created project ${created.project.slug} (${created.project.id}), plan ${created.project.plan}`);
      print("These keys are shown once; store them now:");
      print(`  secret key:       ${created.secretKey}`);
      print(`  publishable key:  ${created.publishableKey}`);
    }
    return 0;
  }
  if (sub === "list") {
    const { values } = parseArgs({ args: rest, options: { json: { type: "boolean", default: false } } });
    const projects = listProjects(db);
    if (values.json) print(JSON.stringify(projects));
    else if (projects.length === 0) print("no projects yet: featureboard project create --slug S");
    else
      for (const p of projects) print(`${p.slug}\t${p.plan}\t${p.isPublic ? "public" : "private"}\t${p.id}`);
    return 0;
  }
  if (sub === "set-plan") {
    const [slug, planName] = rest;
    if (!slug || !planName) throw new UsageError("project set-plan needs SLUG and PLAN");
    const project = setProjectPlan(db, slug, plan(planName)!, "cli");
    print(`project ${project.slug} is now on plan ${project.plan}`);
    return 0;
  }
  throw new UsageError(`unknown project command: ${sub ?? "(none)"}`);
}

export function keysCommand(args: string[], db: Db, print: Print): number {
  const [sub, ...rest] = args;
  if (sub === "create") {
    const { values } = parseArgs({
      args: rest,
      options: {
        project: { type: "string" },
        kind: { type: "string" },
        name: { type: "string" },
        json: { type: "boolean", default: false },
      },
    });
    if (!values.project) throw new UsageError("keys create needs --project SLUG");
    if (values.kind !== "secret" && values.kind !== "publishable") {
      throw new UsageError("keys create needs --kind secret or --kind publishable");
    }
    const kind: KeyKind = values.kind;
    const key = createKey(db, values.project, kind, values.name ?? null, "cli");
    print(values.json ? JSON.stringify({ projectSlug: values.project, kind, key }) : key);
    return 0;
  }
  if (sub === "list") {
    const { values } = parseArgs({
      args: rest,
      options: { project: { type: "string" }, json: { type: "boolean", default: false } },
    });
    if (!values.project) throw new UsageError("keys list needs --project SLUG");
    const keys = listKeys(db, values.project);
    if (values.json) print(JSON.stringify(keys));
    else
      for (const key of keys) {
        print(
          // The name last: the first four columns stay where scripts read them.
          `${key.prefix}\t${key.kind}\t${key.createdAt}\t${key.revokedAt ? `revoked ${key.revokedAt}` : "active"}\t${key.name ?? ""}`,
        );
      }
    return 0;
  }
  if (sub === "revoke") {
    const [given] = rest;
    if (!given) throw new UsageError("keys revoke needs the key, or its PREFIX as `keys list` shows it");
    const prefix = revokeKey(db, given, "cli");
    // An error like every other command's: on stderr, prefixed, exit 1 (main.ts).
    if (prefix === null) throw new Error(`no active key matches ${given.slice(0, 11)}`);
    print(`revoked ${prefix}`);
    return 0;
  }
  if (sub === "rename") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { project: { type: "string" }, name: { type: "string" } },
    });
    const [given] = positionals;
    if (!given || !values.project || values.name === undefined) {
      throw new UsageError(
        'keys rename needs PREFIX, --project SLUG and --name NAME (--name "" takes it away)',
      );
    }
    const renamed = renameKey(db, values.project, given, values.name, "cli");
    // An error like every other command's: on stderr, prefixed, exit 1 (main.ts).
    if (renamed === null) throw new Error(`${values.project} has no key ${given.slice(0, 11)}`);
    print(
      renamed.name === null
        ? `${renamed.prefix} has no name now`
        : `${renamed.prefix} is now named ${renamed.name}`,
    );
    return 0;
  }
  throw new UsageError(`unknown keys command: ${sub ?? "(none)"}`);
}
