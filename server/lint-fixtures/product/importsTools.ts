// Lint fixture (eslint.config.test.ts): the product importing its tools. Not compiled.
import { a } from "@game/loadtest/runner";
import { b } from "@game/tools/bench/drills";
import { c } from "../../tools/src/bench/drills.js";
import { d } from "./pool.js";
export const x = [a, b, c, d];
