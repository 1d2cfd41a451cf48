import { Elysia } from "elysia";
import { recordPageView } from "../analytics/service";
import type { AppContext } from "../context";
import { getProjectLogo } from "../projects/service";
import { ASSETS_PATH, BOARD_ASSETS, type Asset, WIDGET_SCRIPT } from "./assets";
import type { Html } from "../html";
import { htmlResponse } from "./layout";
import {
  boardPage,
  changelogFeed,
  changelogPage,
  notFoundPage,
  postPage,
  roadmapPage,
  submitPage,
} from "./pages";
import {
  type Board,
  loadBoardPage,
  loadChangelogPage,
  loadFeedReleases,
  loadPostPage,
  loadRoadmapPage,
  PageNotFound,
  requireBoard,
} from "./views";

function assetResponse(asset: Asset, version: string | undefined, headers: Record<string, string> = {}) {
  return new Response(asset.body, {
    headers: {
      "content-type": asset.contentType,
      "x-content-type-options": "nosniff",
      // Pages link to the current version's URL, so that URL's content never changes.
      "cache-control":
        version === asset.version ? "public, max-age=31536000, immutable" : "public, max-age=300",
      ...headers,
    },
  });
}

const notFoundResponse = () => htmlResponse(notFoundPage(), 404);

/**
 * The public board pages under `/b/{slug}`, their static assets, and the embeddable widget. Pages read
 * in-process through the services; the browser writes (votes, comments, submissions) through the public
 * API. Every page view of a public board is counted once, here.
 */
export function webRoutes(ctx: AppContext) {
  const { db } = ctx;

  /** Answers for a public board, or with the 404 page when the board or what it asks for is not public. */
  function forBoard(slug: string, respond: (board: Board) => Response): Response {
    try {
      return respond(requireBoard(db, slug));
    } catch (error) {
      if (error instanceof PageNotFound) return notFoundResponse();
      throw error;
    }
  }

  /** A board page: rendered, then counted as one view of the board. */
  function boardPageResponse(slug: string, render: (board: Board) => Html): Response {
    return forBoard(slug, (board) => {
      const page = render(board);
      recordPageView(db, board.project.id);
      return htmlResponse(page);
    });
  }

  return (
    new Elysia({ name: "web", detail: { hide: true } })
      // The widget runs on customers' sites: any origin may load it.
      .get("/widget.js", ({ query }) =>
        assetResponse(WIDGET_SCRIPT, query.v, {
          "access-control-allow-origin": "*",
          "cross-origin-resource-policy": "cross-origin",
        }),
      )
      .get(`${ASSETS_PATH}/:file`, ({ params, query }) => {
        const asset = BOARD_ASSETS[params.file];
        return asset ? assetResponse(asset, query.v) : notFoundResponse();
      })
      .get("/b/:slug", ({ params, query }) =>
        boardPageResponse(params.slug, (board) => boardPage(loadBoardPage(db, board, query))),
      )
      .get("/b/:slug/posts/:postId", ({ params, query }) =>
        boardPageResponse(params.slug, (board) => postPage(loadPostPage(db, board, params.postId, query))),
      )
      .get("/b/:slug/submit", ({ params }) => boardPageResponse(params.slug, submitPage))
      .get("/b/:slug/roadmap", ({ params }) =>
        boardPageResponse(params.slug, (board) =>
          roadmapPage(loadRoadmapPage(db, board, ctx.config.publicUrl)),
        ),
      )
      .get("/b/:slug/changelog", ({ params, query }) =>
        boardPageResponse(params.slug, (board) => changelogPage(loadChangelogPage(db, board, query))),
      )
      // A feed reader polling is not a page view.
      .get("/b/:slug/changelog.atom", ({ params }) =>
        forBoard(
          params.slug,
          (board) =>
            new Response(changelogFeed(board, loadFeedReleases(db, board), ctx.config.publicUrl), {
              headers: {
                "content-type": "application/atom+xml; charset=utf-8",
                "x-content-type-options": "nosniff",
                "cache-control": "public, max-age=300",
              },
            }),
        ),
      )
      // Branding: the accent colour as a stylesheet (the pages run no inline style) and the logo's bytes.
      .get("/b/:slug/brand.css", ({ params }) =>
        forBoard(
          params.slug,
          (board) =>
            new Response(board.accentColor ? `:root{--accent:${board.accentColor}}` : "", {
              headers: {
                "content-type": "text/css; charset=utf-8",
                "cache-control": "public, max-age=31536000, immutable",
              },
            }),
        ),
      )
      .get("/b/:slug/logo", ({ params }) =>
        forBoard(params.slug, (board) => {
          const logo = getProjectLogo(db, board.project.id);
          if (!logo) return notFoundResponse();
          return new Response(new Blob([new Uint8Array(logo.bytes)]), {
            headers: {
              "content-type": logo.contentType,
              "x-content-type-options": "nosniff",
              "cache-control": "public, max-age=31536000, immutable",
            },
          });
        }),
      )
      .get("/b/*", () => notFoundResponse())
  );
}
