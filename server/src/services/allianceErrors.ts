import type { RuleRejection } from "@game/schema/rules";
import { AppError } from "../errors.js";

/**
 * The HTTP status of an alliance or diplomacy rule's refusal: a right the caller lacks is a
 * 403, a state that forbids it now (full, already done, locked, expired) a 409, the rest a
 * 400 (bad input, not enough points).
 */
const FORBIDDEN = new Set(["alliance/not_member", "alliance/forbidden", "alliance/owner_only", "alliance/kick_owner", "operation/not_invited", "defense/own_request", "diplomacy/not_party", "diplomacy/not_holder"]);
const CONFLICT = new Set([
  "alliance/already_member",
  "alliance/full",
  "alliance/managers_full",
  "alliance/already_manager",
  "alliance/not_manager",
  "alliance/max_level",
  "alliance/bonus_cooldown",
  "alliance/not_in_alliance",
  "alliance/closed_applications",
  "operation/closed",
  "operation/full",
  "operation/too_many",
  "operation/not_ready",
  "defense/responded",
  "defense/expired",
  "defense/open_request",
  "diplomacy/exists",
  "diplomacy/pending",
  "diplomacy/conflict",
  "diplomacy/cancel_locked",
  "diplomacy/not_active",
  "diplomacy/not_pending",
]);

export function refusal(rejection: RuleRejection): AppError {
  const status = FORBIDDEN.has(rejection.code) ? 403 : CONFLICT.has(rejection.code) ? 409 : 400;
  return new AppError(status, rejection.message, rejection.code);
}

/** Throws the refusal of a check, if any. */
export function ensure(rejection: RuleRejection | null): void {
  if (rejection) throw refusal(rejection);
}
