// Lint fixture (eslint.config.test.ts): the client may import the shared contract.
import { CHAT_MAX_LENGTH } from "@game/schema/rules";
import type { ApiFailure } from "@game/schema/api";

export const limit = CHAT_MAX_LENGTH;
export type Failure = ApiFailure;
