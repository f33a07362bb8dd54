// Lint fixture (eslint.config.test.ts): a tool reaching into the server by a relative path. Not compiled.
import { a } from "../../src/db/pool.js";
import { b } from "@game/server/db/pool";
import { c } from "@game/loadtest/runner";
export const x = [a, b, c];
