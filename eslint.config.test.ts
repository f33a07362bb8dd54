/**
 * The dependency direction is a lint rule (eslint.config.js); these tests prove it fires: the
 * fixtures under client/lint-fixtures and schema/lint-fixtures (ignored by `npm run lint`)
 * are linted with the repository's own configuration and must fail exactly where they break
 * the direction, and pass where they keep it.
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

  it("keeps the tools out of the product: the server imports neither the tools nor the load tester, the tools import the server by name", async () => {
    const server = 'import { a } from "@game/loadtest/runner";\nimport { b } from "@game/tools/bench/drills";\nimport { c } from "../../tools/src/bench/drills.js";\nimport { d } from "./pool.js";\nexport const x = [a, b, c, d];\n';
    expect(await restrictedText(server, "server/src/db/virtual.ts")).toEqual(["1: @game/loadtest/runner", "2: @game/tools/bench/drills", "3: ../../tools/src/bench/drills.js"]);
    const tools = 'import { a } from "../../src/db/pool.js";\nimport { b } from "@game/server/db/pool";\nimport { c } from "@game/loadtest/runner";\nexport const x = [a, b, c];\n';
    expect(await restrictedText(tools, "server/tools/src/bench/virtual.ts")).toEqual(["1: ../../src/db/pool.js"]);
  });

  it("refuses IO in schema tests but allows vitest and fast-check there", async () => {
    const code = 'import { it } from "vitest";\nimport fc from "fast-check";\nimport Redis from "ioredis";\nexport const x = [it, fc, Redis];\n';
    expect(await restrictedText(code, "schema/src/rules/virtual.test.ts")).toEqual(["3: ioredis"]);
  });

  it("the repository's own code passes: the fixtures are the only offenders", async () => {
    const results = await new ESLint({ cwd: root }).lintFiles(["client", "loadtest", "schema"]);
    const offenders = results.filter((r) => r.messages.some((m) => m.ruleId === "no-restricted-imports")).map((r) => path.relative(root, r.filePath));
    expect(offenders).toEqual([]);
  });
});
