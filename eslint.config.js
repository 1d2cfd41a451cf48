// Lint rules: the recommended sets of ESLint and typescript-eslint, with `any` forbidden outright.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
    // The board, widget and API-docs scripts run in browsers as classic scripts, served as they are written.
    files: ["src/web/assets/**/*.js", "src/meta/docs/**/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: Object.fromEntries(
        ["window", "document", "fetch", "crypto", "console", "URL", "CSSStyleSheet", "Intl"].map((name) => [
          name,
          "readonly",
        ]),
      ),
    },
  },
);
