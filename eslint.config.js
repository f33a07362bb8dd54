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
 * - inside the server, the layers: the entry points (http, rooms, tick) -> services -> db, and
 *   routes never query db (SERVER_LAYERS; docs/architecture.md, "Layers inside the server");
 * - no circle of imports anywhere (import-x/no-cycle, value imports), and in schema, client and
 *   loadtest no circle of type-only imports either (local/no-cycle-with-types);
 * - the rules of hooks in the client; no floating or misused promises in the server (type-aware).
 * eslint.config.test.ts proves the rules fire, on the fixtures in client/lint-fixtures,
 * schema/lint-fixtures and server/lint-fixtures.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import reactHooks from "eslint-plugin-react-hooks";
import localRules from "./eslint-rules/noCycleWithTypes.js";

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
const crossPackage = (...pkgs) => pkgs.map((pkg) => ({ regex: intoPackage(pkg), message: `No relative imports into ${pkg}/: import the package by its name.` }));

/** A relative import, from anywhere inside server/src, into the server folder `layer`. */
const intoLayer = (layer) => `^(\\.\\./)+${layer}/`;

/**
 * Each server folder and the folders it must not import (docs/architecture.md, "Layers inside
 * the server"). Tests are exempt: they wire every layer together on purpose.
 */
/** The escaping of SQL values is db/'s alone: a SQL template with values lives in db/. */
const SQL_BUILDING = {
  regex: "^(\\.\\./)+db/(sqlLiteral|statement)\\.js$",
  why: 'SQL with values in its text is built in db/ only: add a query or a statement function there (docs/architecture.md, "SQL").',
};

const SERVER_LAYERS = [
  {
    folder: "db",
    refused: ["services", "http", "rooms", "tick"].map((layer) => ({
      layer,
      why: `db is the bottom layer (SQL and row mapping): it never imports ${layer}/. Move what both need into db/ or pass it in.`,
    })),
  },
  {
    folder: "services",
    refused: [
      ...["http", "rooms", "tick"].map((layer) => ({
        layer,
        why: `services are called by http, rooms and tick, never the reverse: they never import ${layer}/. Move what both need into services/ or db/.`,
      })),
      SQL_BUILDING,
    ],
  },
  {
    folder: "http",
    refused: [
      { layer: "db", allowTypeImports: true, why: 'Routes only translate to and from a service call: read models are service functions too (docs/architecture.md, "Layers"). Types may pass.' },
      ...["rooms", "tick"].map((layer) => ({ layer, why: `http is an entry point like ${layer}/: entry points meet in services, never import each other.` })),
      SQL_BUILDING,
    ],
  },
  {
    folder: "rooms",
    refused: [...["http", "tick"].map((layer) => ({ layer, why: `rooms are an entry point like ${layer}/: entry points meet in services, never import each other.` })), SQL_BUILDING],
  },
  {
    folder: "tick",
    refused: [...["http", "rooms"].map((layer) => ({ layer, why: `tick is an entry point like ${layer}/: entry points meet in services, never import each other.` })), SQL_BUILDING],
  },
];

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
  // Layers inside the server: entry points (http, rooms, tick) -> services -> db.
  ...SERVER_LAYERS.map(({ folder, refused }) => ({
    files: [`server/src/${folder}/**/*.ts`, `server/lint-fixtures/${folder}/**/*.ts`],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: refused.map(({ layer, regex = intoLayer(layer), why, allowTypeImports = false }) => ({ regex, message: why, allowTypeImports })) }],
    },
  })),
  {
    files: ["**/*.ts", "**/*.tsx"],
    plugins: { "import-x": importX },
    settings: {
      // import-x reads each imported file to follow the chain: TypeScript files with its parser.
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ["schema/tsconfig.json", "server/tsconfig.json", "client/tsconfig.json", "loadtest/tsconfig.json"],
        }),
      ],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Outside the server a circle of type-only imports is refused too: import-x/no-cycle
    // skips them and has no option to count them (eslint-rules/noCycleWithTypes.js says why).
    files: ["schema/**/*.ts", "client/**/*.ts", "client/**/*.tsx", "loadtest/**/*.ts"],
    plugins: { local: localRules },
    rules: { "local/no-cycle-with-types": "error" },
  },
  {
    files: ["client/**/*.tsx", "client/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    // A SqlLiteral is made by db/sqlLiteral.ts's escaping functions only, never by a cast.
    files: ["server/**/*.ts"],
    ignores: ["server/src/db/sqlLiteral.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: ":matches(TSAsExpression, TSTypeAssertion) > TSTypeReference > Identifier[name=/^Sql(Literal|IdList)$/]",
          message: "A SqlLiteral comes from sqlLiteral, jsonbLiteral or quoteText (db/sqlLiteral.ts), never from a cast.",
        },
      ],
    },
  },
  {
    files: ["server/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // The product does not depend on its tools: benches, drills, the simulator and the load
    // tester drive the server from server/tools, never the other way round.
    files: ["server/src/**", "server/lint-fixtures/product/**"],
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
    files: ["server/tools/**", "server/lint-fixtures/tools/**"],
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
