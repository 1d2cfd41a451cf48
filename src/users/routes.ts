import { t } from "elysia";
import type { AppContext } from "../context";
import { pageRequest, PaginationSchema } from "../http/paging";
import { secretKeyRoutes } from "../http/routes";
import { dataOf, errorResponses } from "../http/schemas";
import {
  BoardUserSchema,
  USERS_DEFAULT_LIMIT,
  UserListQuery,
  UserParams,
  UserUpdateSchema,
  UserUpsertSchema,
} from "./schema";
import * as users from "./service";

export function userRoutes(ctx: AppContext) {
  const { db } = ctx;
  return secretKeyRoutes(ctx, "/api/v1/users", "Board users")
    .get(
      "",
      ({ project, query }) => users.listUsers(db, project.id, pageRequest(query, USERS_DEFAULT_LIMIT)),
      {
        query: UserListQuery,
        response: {
          200: t.Object(
            { data: t.Array(BoardUserSchema), pagination: PaginationSchema },
            { description: "A page of users" },
          ),
          ...errorResponses(400),
        },
        detail: {
          summary: "List board users",
          description: "Oldest first; `limit` defaults to 50, at most 100.",
        },
      },
    )
    .post(
      "",
      ({ project, body, status }) => {
        const { user, created } = users.upsertUserByEmail(db, project.id, body);
        return status(created ? 201 : 200, { data: user });
      },
      {
        body: UserUpsertSchema,
        response: {
          200: dataOf(BoardUserSchema, "The existing user with that email, updated"),
          201: dataOf(BoardUserSchema, "The new user"),
          ...errorResponses(400),
        },
        detail: {
          summary: "Create or update a board user by email",
          description:
            "An addition to the specification: registers the customer behind an email (201), or updates the user who already has it (200), so you can then vote on their behalf.",
        },
      },
    )
    .get("/:userId", ({ project, params }) => ({ data: users.getUser(db, project.id, params.userId) }), {
      params: UserParams,
      response: { 200: dataOf(BoardUserSchema, "The user"), ...errorResponses(404) },
      detail: { summary: "Get a board user" },
    })
    .patch(
      "/:userId",
      ({ project, params, body }) => ({ data: users.updateUser(db, project.id, params.userId, body) }),
      {
        params: UserParams,
        body: UserUpdateSchema,
        response: { 200: dataOf(BoardUserSchema, "The updated user"), ...errorResponses(400, 404, 409) },
        detail: {
          summary: "Update a board user",
          description:
            'Only the fields given change. `userSpend` is a number and is returned as a string such as "49.90".',
        },
      },
    );
}
