export * as rules from "./rules/index.js";
export * as api from "./api/index.js";
export * as messages from "./messages/index.js";
export * as state from "./state/index.js";
