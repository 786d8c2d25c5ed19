// Lint of the front end (`npm run lint`, part of `make lint`): eslint's
// recommended rules, plus a few that catch real bugs rather than style
// (formatting is not linted here).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `== null` (null or undefined) is the one loose comparison allowed.
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-unused-vars": [
        "error",
        { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-shadow-restricted-names": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "no-constructor-return": "error",
      // A name used before its declaration in the same scope (a TDZ error);
      // closures that run later may refer to what is declared below them.
      "no-use-before-define": [
        "error",
        { functions: false, classes: false, variables: false },
      ],
      "array-callback-return": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-coercion": ["error", { allow: ["!!"] }],
    },
  },
  {
    // Node scripts: the build and the configs.
    files: ["build.mjs", "*.config.js"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Tests run in vitest's jsdom, with node's modules beside the browser's.
    files: ["src/**/*.test.js", "src/test_helpers.js", "src/test_setup.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
