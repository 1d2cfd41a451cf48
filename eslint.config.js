// Lint rules: the recommended sets of ESLint and typescript-eslint, with `any` forbidden outright.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const NO_LOOKUP_BY_DB = {
  selector: "NewExpression[callee.name='WeakMap'] TSTypeReference[typeName.name='Db']",
  message:
    "Runtime state belongs to the runtime object (src/context.ts), not to a WeakMap keyed on the database.",
};
const SQL_OUTSIDE_STORES = [
  {
    selector:
      "CallExpression[callee.property.name=/^(query|prepare|run|exec)$/][callee.object.name=/^(db|database)$/]",
    message: "SQL belongs in a store.ts file: call a store function instead.",
  },
  {
    selector:
      "CallExpression[callee.property.name=/^(query|prepare|run|exec)$/][callee.object.property.name='db']",
    message: "SQL belongs in a store.ts file: call a store function instead.",
  },
];

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "data/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    // State is passed, not looked up: nothing is kept in a WeakMap keyed on the database handle.
    files: ["src/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", NO_LOOKUP_BY_DB] },
  },
  {
    // SQL lives in store.ts files (and the database layer in src/db): a rule, a surface or a worker that
    // needs data calls a store function (docs/architecture.md).
    files: ["src/**/*.ts"],
    ignores: ["src/**/store.ts", "src/db/**"],
    rules: { "no-restricted-syntax": ["error", NO_LOOKUP_BY_DB, ...SQL_OUTSIDE_STORES] },
  },
  {
    // A room's store.ts is private to its folder: other rooms go through its service (docs/architecture.md).
    files: ["src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+[^/]+/store$",
              message: "Another room's store is private: import its service instead.",
            },
          ],
        },
      ],
    },
  },
  {
    // Surfaces translate HTTP, MCP, HTML or the command line into service calls: they never reach a store.
    files: ["src/public/**", "src/mcp/**", "src/web/**", "src/meta/**", "src/cli/**", "src/**/routes.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)store$",
              message: "A surface calls services, never a store (docs/architecture.md).",
            },
          ],
        },
      ],
    },
  },
  {
    // The board, widget, dashboard and API-docs scripts run in browsers as classic scripts, served as written.
    files: ["src/web/assets/**/*.js", "src/meta/docs/**/*.js", "src/admin/assets/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: Object.fromEntries(
        [
          "window",
          "document",
          "fetch",
          "crypto",
          "console",
          "URL",
          "URLSearchParams",
          "CSSStyleSheet",
          "Intl",
          "setTimeout",
          "clearTimeout",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
  {
    // visitor-messages.client.js is written into the board's and the widget's scripts (src/web/assets.ts).
    files: ["src/web/assets/board.client.js", "src/web/assets/widget.client.js"],
    languageOptions: {
      globals: {
        ApiRefusal: "readonly",
        visitorMessage: "readonly",
        labelText: "readonly",
        readAnswer: "readonly",
        noAnswer: "readonly",
        plural: "readonly",
      },
    },
  },
  {
    // The widget's field limits and key prefixes are written into it (src/web/assets.ts, `// @include limits`).
    files: ["src/web/assets/widget.client.js"],
    languageOptions: {
      globals: { LIMITS: "readonly", KEY_PREFIX: "readonly", EMAIL_CONFIRMATION_NOTE: "readonly" },
    },
  },
  {
    files: ["src/web/assets/visitor-messages.client.js"],
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { varsIgnorePattern: "^(visitorMessage|labelText|readAnswer|noAnswer)$" },
      ],
    },
  },
);
