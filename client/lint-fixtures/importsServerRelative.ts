// Lint fixture (eslint.config.test.ts): the client may not reach into server/ by a relative path.
import type { AppError } from "../../server/src/errors.js";

export type Failure = AppError;
