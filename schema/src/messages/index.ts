/** Room message names and payload validators, imported by both the server and the client. */
export * from "./room.js";
export * from "./notice.js";
export * from "./world.js";
export * from "./worldFeeds.js";
// The chat rules (channels, access, mentions, commands) travel with the messages so a client
// needs one import to render the chat.
export * from "../rules/chat.js";
export * from "../rules/ranking.js";
export * from "./market.js";
export * from "./alliance.js";
