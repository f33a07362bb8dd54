export * as rules from "./rules/index.js";
export * as api from "./api/index.js";
