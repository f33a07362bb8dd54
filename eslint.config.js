// @ts-check
/**
 * Lint for the whole repository (`npm run lint`, run by .ci/run after the type-check).
 *
 * Besides the recommended, type-unaware rules of ESLint and typescript-eslint, it enforces the
 * dependency direction of docs/architecture.md as rules:
 * - client and loadtest import @game/schema, never server code (neither the @game/server
 *   package nor a relative path into server/);
 * - schema imports no IO: only its own files, zod and @colyseus/schema (tests may add vitest
 *   and fast-check). An allowlist, so a new IO package cannot slip in unnoticed.
 * eslint.config.test.ts proves the rules fire, on the fixtures in client/lint-fixtures and
 * schema/lint-fixtures.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** A relative import that climbs out of its package into `pkg` (e.g. "../../server/src/x.js"). */
const intoPackage = (pkg) => `^(\\.\\./)+${pkg}(/|$)`;

const SERVER_IMPORTS = [
  {
    regex: "^@game/server(/|$)",
    message: "Server code stays on the server: import the shared contract from @game/schema instead.",
  },
  {
    regex: intoPackage("server"),
    message: "No relative imports into server/: import the shared contract from @game/schema instead.",
  },
];

/** Relative imports across packages are refused everywhere: packages meet through their names. */
const crossPackage = (...pkgs) =>
  pkgs.map((pkg) => ({ regex: intoPackage(pkg), message: `No relative imports into ${pkg}/: import the package by its name.` }));

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/dist/**", "**/data/**", ".e2e-artifacts/**", "loadtest/reports/**", "**/lint-fixtures/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `any` marks the untyped edges on purpose (raw JSON in tests, SDK internals); the
      // contract types in @game/schema replace it where a shape is known.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
      // Unused names are an error, except the deliberate `_unused` parameter or rest sibling.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  {
    files: ["client/**", "loadtest/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...SERVER_IMPORTS, ...crossPackage("schema")] }],
    },
  },
  {
    files: ["server/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: crossPackage("client", "schema", "loadtest") }],
    },
  },
  {
    // The product does not depend on its tools: benches, drills, the simulator and the load
    // tester drive the server from server/tools, never the other way round.
    files: ["server/src/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...crossPackage("client", "schema", "loadtest"),
            { regex: "^@game/(tools|loadtest)(/|$)", message: "The server does not depend on its tools: benches, drills and load-test checks live in server/tools." },
            { regex: "^(\\.\\./)+tools(/|$)", message: "The server does not depend on its tools: benches, drills and load-test checks live in server/tools." },
          ],
        },
      ],
    },
  },
  {
    // The tools reach the server through its package name (@game/server/<path>), not by a
    // relative path into server/src.
    files: ["server/tools/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...crossPackage("client", "schema", "loadtest"), { regex: "^(\\.\\./)+src(/|$)", message: "Import the server by its name: @game/server/<path>." }] }],
    },
  },
  {
    files: ["schema/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!\\.{1,2}/|zod$|zod/|@colyseus/schema$)",
              message: "schema is the pure contract: it imports no IO, only its own files, zod and @colyseus/schema.",
            },
            ...crossPackage("server", "client", "loadtest"),
          ],
        },
      ],
    },
  },
  {
    files: ["schema/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?!\\.{1,2}/|zod$|zod/|@colyseus/schema$|vitest$|fast-check$)",
              message: "schema tests import no IO: only schema files, zod, @colyseus/schema, vitest and fast-check.",
            },
            ...crossPackage("server", "client", "loadtest"),
          ],
        },
      ],
    },
  },
);
