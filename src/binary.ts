// Entry point of the compiled binary (`npm run build`): embeds the sqlite-vec extension for this
// platform, so the binary runs with no node_modules beside it, then runs the normal CLI.
import sqliteVecExtension from "sqlite-vec-linux-x64/vec0.so" with { type: "file" };
import { useEmbeddedSqliteVec } from "./db/sqlite-vec";

useEmbeddedSqliteVec(sqliteVecExtension);
await import("./main");
