import type { Subprocess } from "bun";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The command that runs featureboard from source: `bun src/main.ts …`. */
export const SOURCE_COMMAND = [process.execPath, `${ROOT}src/main.ts`];

export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export function runCommand(command: string[], env: Record<string, string>, cwd = ROOT): CommandResult {
  const result = Bun.spawnSync(command, {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
  });
  return { exitCode: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

export function freePort(): number {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port;
  server.stop(true);
  return port ?? 0;
}

export interface ServiceProcess {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  url: string;
  /** Everything printed to stdout so far. */
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  exited: Promise<number>;
}

/** Starts `featureboard serve` as a real process on a free port and waits until it answers. */
export async function startServiceProcess(
  command: string[],
  env: Record<string, string>,
  cwd = ROOT,
): Promise<ServiceProcess> {
  const port = freePort();
  const proc = Bun.spawn([...command, "serve"], {
    cwd,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stdout = "";
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of proc.stdout) stdout += decoder.decode(chunk);
  })();
  const url = `http://127.0.0.1:${port}`;
  const waitForOutput = async (pattern: RegExp, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const match = stdout.match(pattern);
      if (match) return match[0];
      if (proc.exitCode !== null) break;
      await Bun.sleep(20);
    }
    throw new Error(
      `output never matched ${pattern}; stdout:\n${stdout}\nstderr:\n${await new Response(proc.stderr).text()}`,
    );
  };
  await waitForOutput(/"msg":"listening"/);
  return {
    proc,
    url,
    output: () => stdout,
    waitForOutput,
    exited: proc.exited.then(async (code) => {
      await reading;
      return code;
    }),
  };
}
