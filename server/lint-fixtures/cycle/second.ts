import { first } from "./first.js";
export const second = (): number => (first.length > 0 ? 1 : 0);
