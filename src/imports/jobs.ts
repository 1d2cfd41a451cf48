import { actAs } from "../activity/service";
import { type ActingMember, type Db, whenCommitted } from "../db/connection";
import { ApiError, notFound } from "../http/errors";
import type { Logger } from "../log";
import { describeError } from "../log";
import { checkCsvImport, type CsvImportPlan } from "./csv-import";
import type { ImportError } from "./schema";
import {
  type CsvImportRows,
  csvRowsOf,
  IMPORT_SLICE_MS,
  importCsvInSlices,
  recordImportJob,
} from "./service";
import { nextTurn } from "../turns";

/** Errors an import job keeps to show (the count of skipped rows stays exact). */
const KEPT_ERRORS = 100;

export interface ImportJob {
  id: string;
  projectId: string;
  state: "running" | "finished" | "failed";
  total: number;
  done: number;
  imported: number;
  skipped: number;
  /** Of `skipped`: rows whose id was imported into this project before (docs/export-format.md). */
  alreadyImported: number;
  errors: ImportError[];
  /** Columns of the file no field is read from: known before the first row is written. */
  unreadColumns: string[];
  /** Why a failed job stopped. */
  failure: string | null;
  startedAt: number;
}

/**
 * CSV imports started from the dashboard: checked whole before the first row is written, then written in
 * slices of IMPORT_SLICE_MS with the event loop free between them, so the page can show real progress
 * (`done` of `total`) and other requests go on. Jobs live in the runtime object (src/context.ts) until the
 * process ends: they report progress, the rows themselves are in the database as each slice commits.
 */
export class ImportJobs {
  private readonly jobs = new Map<string, ImportJob>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /**
   * Parses and checks the CSV (a bad file is refused here, with nothing written) and starts the job; the
   * activity entries of its rows name `actor` when a team member started it.
   */
  async start(projectId: string, csv: string, actor: ActingMember | null = null): Promise<ImportJob> {
    const parsed = await csvRowsOf({ csv });
    const { rows } = parsed;
    // An empty file, or a header with no row under it (a quoted header cell may hold a line break), is
    // said to be so, not a finished job of 0 rows.
    if (rows.length === 0) {
      throw new ApiError(
        "VALIDATION_ERROR",
        "No rows found in the file",
        "A CSV needs a header line and a line for each request under it; a board export is the file the Export button saves.",
      );
    }
    const plan = await checkCsvImport(rows, nextTurn, IMPORT_SLICE_MS);
    const job: ImportJob = {
      id: Bun.randomUUIDv7(),
      projectId,
      state: "running",
      total: rows.length,
      done: 0,
      imported: 0,
      skipped: 0,
      alreadyImported: 0,
      errors: [],
      unreadColumns: plan.unreadColumns,
      failure: null,
      startedAt: Date.now(),
    };
    this.jobs.set(job.id, job);
    void this.run(job, parsed, plan, actor);
    return job;
  }

  /** A job of this project (another project's job is not found). */
  get(projectId: string, jobId: string): ImportJob {
    const job = this.jobs.get(jobId);
    if (!job || job.projectId !== projectId) throw notFound("IMPORT_NOT_FOUND");
    return job;
  }

  private async run(
    job: ImportJob,
    parsed: CsvImportRows,
    plan: CsvImportPlan,
    actor: ActingMember | null,
  ): Promise<void> {
    const around = <T>(write: () => T): T => (actor ? actAs(this.db, actor, write) : write());
    try {
      const result = await importCsvInSlices(
        this.db,
        job.projectId,
        parsed,
        {
          around,
          // Progress counts what is committed, not what is merely written.
          progress: (done, imported, alreadyImported, errors) => {
            job.done = done;
            job.imported = imported;
            job.alreadyImported += alreadyImported;
            job.skipped += alreadyImported + errors.length;
            job.errors.push(...errors.slice(0, Math.max(0, KEPT_ERRORS - job.errors.length)));
          },
        },
        plan,
      );
      around(() => recordImportJob(this.db, job.projectId, result, job.id));
      await whenCommitted(this.db);
      job.state = "finished";
    } catch (error) {
      job.state = "failed";
      job.failure = error instanceof Error ? error.message : String(error);
      this.log.error("dashboard import failed", { importId: job.id, ...describeError(error) });
    }
  }
}
