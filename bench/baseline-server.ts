// The baseline of every benchmark: a bare Elysia route answering a fixed JSON body of a requested size,
// so featureboard's numbers can be read as ratios against the framework alone on the same machine.
import { Elysia } from "elysia";

const bodies = new Map<number, string>();

/** A JSON document of exactly `bytes` bytes. */
function fixedBody(bytes: number): string {
  let body = bodies.get(bytes);
  if (!body) {
    const shell = '{"data":""}';
    body = `{"data":"${"x".repeat(Math.max(0, bytes - shell.length))}"}`;
    bodies.set(bytes, body);
  }
  return body;
}

const port = Number(process.env.PORT ?? 0);
new Elysia()
  .get("/fixed/:bytes", ({ params, set }) => {
    set.headers["content-type"] = "application/json";
    return fixedBody(Number(params.bytes));
  })
  .post("/fixed/:bytes", ({ params, body, set }) => {
    set.headers["content-type"] = "application/json";
    return body === undefined ? "" : fixedBody(Number(params.bytes));
  })
  .listen({ port, hostname: "127.0.0.1" });
