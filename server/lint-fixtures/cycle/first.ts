// first.ts and second.ts import each other: a circle, whichever loads first sees the other half-done.
import { second } from "./second.js";
export const first = (): number => second() + 1;
