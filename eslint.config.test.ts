/**
 * The dependency direction is a lint rule (eslint.config.js); these tests prove it fires: the
 * fixtures under client/lint-fixtures, schema/lint-fixtures and server/lint-fixtures (ignored
 * by `npm run lint`) are linted with the repository's own configuration and must fail exactly
 * where they break the direction (or the layers inside the server, a circle of imports, the
 * rules of hooks, the handling of promises), and pass where they keep it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.dirname(fileURLToPath(import.meta.url));
// ignore: false lints the fixtures the configuration otherwise skips.
const eslint = new ESLint({ cwd: root, ignore: false });

/** The restricted-import findings of a file, as "line: import source". */
async function restricted(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(root, file)]);
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => `${m.line}: ${m.message.split("'")[1]}`);
}

/** The findings of `rules` in a fixture, as "line: rule". */
async function findings(file: string, rules: readonly string[]): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(root, file)]);
  return result!.messages.filter((m) => m.ruleId !== null && rules.includes(m.ruleId)).map((m) => `${m.line}: ${m.ruleId}`);
}

/** The layer findings of a server fixture, as "line: import source". */
async function layerFindings(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([path.join(root, file)]);
  return result!.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => `${m.line}: ${m.message.split("'")[1]}`);
}

async function restrictedText(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => `${m.line}: ${m.message.split("'")[1]}`);
}

describe("lint: dependency direction", () => {
  it.each([
    ["client/lint-fixtures/importsServerPackage.ts", ["2: @game/server/src/test/harness.ts"]],
    ["client/lint-fixtures/importsServerRelative.ts", ["2: ../../server/src/errors.js"]],
    ["client/lint-fixtures/importsSchema.ts", []],
    ["schema/lint-fixtures/importsIo.ts", ["2: node:fs", "3: pg", "4: express", "5: @colyseus/core"]],
    ["schema/lint-fixtures/importsContract.ts", []],
  ])("%s", async (file, expected) => {
    expect(await restricted(file)).toEqual(expected);
  });

  it("refuses server code in loadtest too, and lets it import the schema", async () => {
    const code = 'import { a } from "@game/server";\nimport { b } from "../../server/src/db/pool.js";\nimport { c } from "@game/schema/api";\nexport const x = [a, b, c];\n';
    expect(await restrictedText(code, "loadtest/src/virtual.ts")).toEqual(["1: @game/server", "2: ../../server/src/db/pool.js"]);
  });

  it.each([
    ["server/lint-fixtures/product/importsTools.ts", ["2: @game/loadtest/runner", "3: @game/tools/bench/drills", "4: ../../tools/src/bench/drills.js"]],
    ["server/lint-fixtures/tools/importsServer.ts", ["2: ../../src/db/pool.js"]],
  ])("keeps the tools out of the product: %s", async (file, expected) => {
    expect(await restricted(file)).toEqual(expected);
  });

  it("refuses IO in schema tests but allows vitest and fast-check there", async () => {
    const code = 'import { it } from "vitest";\nimport fc from "fast-check";\nimport Redis from "ioredis";\nexport const x = [it, fc, Redis];\n';
    expect(await restrictedText(code, "schema/src/rules/virtual.test.ts")).toEqual(["3: ioredis"]);
  });

  it("the repository's own code passes: the fixtures are the only offenders", async () => {
    // only the rule under test runs: `npm run lint` runs the rest (the cycle rule reads every file twice)
    const results = await new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports" }).lintFiles(["client", "loadtest", "schema"]);
    const offenders = results.filter((r) => r.messages.some((m) => m.ruleId === "no-restricted-imports")).map((r) => path.relative(root, r.filePath));
    expect(offenders).toEqual([]);
  });
});

describe("lint: layers inside the server (entry points http, rooms, tick -> services -> db)", () => {
  it.each([
    ["server/lint-fixtures/db/importsUpward.ts", ["2: ../services/ai.js", "3: ../http/app.js", "4: ../rooms/index.js", "5: ../tick/index.js", "6: ../tick/index.js"]],
    ["server/lint-fixtures/services/importsEntryPoints.ts", ["2: ../http/app.js", "3: ../rooms/index.js", "4: ../tick/index.js"]],
    // the row type on line 3 passes: only the query is refused
    ["server/lint-fixtures/http/importsDb.ts", ["2: ../db/countries.js", "4: ../tick/index.js", "5: ../rooms/index.js"]],
    ["server/lint-fixtures/rooms/importsEntryPoints.ts", ["2: ../http/app.js", "3: ../tick/index.js"]],
    ["server/lint-fixtures/tick/importsEntryPoints.ts", ["2: ../http/app.js", "3: ../rooms/index.js"]],
    // SQL with values is built in db/ only; a query function of db/ (line 4) is what services call
    ["server/lint-fixtures/services/buildsSql.ts", ["2: ../db/sqlLiteral.js", "3: ../db/statement.js"]],
  ])("%s", async (file, expected) => {
    expect(await layerFindings(file)).toEqual(expected);
  });

  it("refuses a SqlLiteral made by a cast instead of an escaping function", async () => {
    expect(await findings("server/lint-fixtures/services/buildsSql.ts", ["no-restricted-syntax"])).toEqual(["5: no-restricted-syntax"]);
  });
});

describe("lint: no circle of imports", () => {
  it.each([
    ["server/lint-fixtures/cycle/first.ts", ["2: import-x/no-cycle"]],
    ["server/lint-fixtures/cycle/second.ts", ["1: import-x/no-cycle"]],
    ["server/lint-fixtures/cycle/typeOnly.ts", []],
  ])("%s", async (file, expected) => {
    expect(await findings(file, ["import-x/no-cycle"])).toEqual(expected);
  });

  it.each([
    // a circle of which one half is a type-only import: refused in schema, client and loadtest
    ["client/lint-fixtures/cycle/panel.tsx", ["2: local/no-cycle-with-types"]],
    ["client/lint-fixtures/cycle/screen.tsx", ["1: local/no-cycle-with-types"]],
    // the server keeps type circles allowed (import-x/no-cycle only)
    ["server/lint-fixtures/cycle/typeOnly.ts", []],
  ])("type-only circles outside the server: %s", async (file, expected) => {
    expect(await findings(file, ["local/no-cycle-with-types"])).toEqual(expected);
  });

  it("schema, client and loadtest have no circle of imports, type-only ones included", async () => {
    const results = await new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === "local/no-cycle-with-types" }).lintFiles(["schema", "client", "loadtest"]);
    const offenders = results.flatMap((r) => r.messages.filter((m) => m.ruleId === "local/no-cycle-with-types").map((m) => `${path.relative(root, r.filePath)}:${m.line}`));
    expect(offenders).toEqual([]);
  });
});

describe("lint: promises in server code", () => {
  it("refuses a promise left floating and an async callback where void is expected", async () => {
    expect(await findings("server/lint-fixtures/promises.ts", ["@typescript-eslint/no-floating-promises", "@typescript-eslint/no-misused-promises"])).toEqual([
      "9: @typescript-eslint/no-floating-promises",
      "14: @typescript-eslint/no-misused-promises",
    ]);
  });
});

describe("lint: the rules of hooks in the client", () => {
  it("refuses a conditional hook and an effect missing a dependency", async () => {
    expect(await findings("client/lint-fixtures/hooks.tsx", ["react-hooks/rules-of-hooks", "react-hooks/exhaustive-deps"])).toEqual(["6: react-hooks/rules-of-hooks", "11: react-hooks/exhaustive-deps"]);
  });
});
