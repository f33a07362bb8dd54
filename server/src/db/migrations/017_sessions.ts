/**
 * Sessions (issue 15, finding 2; issue 13, account security): revoking every token of a user
 * at once. A token whose issue time (the `iat_ms` claim, or `iat` for older tokens) is not
 * after `tokens_valid_after` is refused, except the one token `tokens_kept_jti` names (the
 * session that changed the password keeps working). Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE users
  ADD COLUMN tokens_valid_after timestamptz,
  ADD COLUMN tokens_kept_jti text;
`;
