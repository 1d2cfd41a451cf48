// The baseline of every benchmark: a bare Elysia route answering a fixed JSON body of a requested size,
// so featureboard's numbers can be read as ratios against the framework alone on the same machine.
import { Elysia, t } from "elysia";

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

// BASELINE_ROUTES=N adds N routes with a path parameter and a TypeBox schema, so the start-up bench can
// set the framework's cost for featureboard's number of routes beside the one-route app.
const extraRoutes = Number(process.env.BASELINE_ROUTES ?? 0);
const port = Number(process.env.PORT ?? 0);
const app = new Elysia();
for (let route = 0; route < extraRoutes; route++) {
  app.get(`/extra/${route}/:id`, ({ params }) => ({ data: params.id }), {
    params: t.Object({ id: t.String() }),
  });
}
app
  .get("/fixed/:bytes", ({ params, set }) => {
    set.headers["content-type"] = "application/json";
    return fixedBody(Number(params.bytes));
  })
  .post("/fixed/:bytes", ({ params, body, set }) => {
    set.headers["content-type"] = "application/json";
    return body === undefined ? "" : fixedBody(Number(params.bytes));
  })
  .listen({ port, hostname: "127.0.0.1" });
