/**
 * The authentication epoch (issue 16): one counter that every committed revocation moves, so a
 * process can keep its token verdicts for as long as the counter stays where it was, asking
 * Postgres once every AUTH_EPOCH_POLL_MS instead of once per token per second
 * (auth/tokens.ts). Statement triggers on what a verdict reads: a revoked jti, a user's
 * tokens revoked or suspension changed, a user deleted. The counter row is locked until the
 * revoking transaction commits, so a process that reads the new value also sees the
 * revocation. A user's country is not covered: ownership is checked again on every row an
 * action or a read model touches.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE auth_epoch (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  epoch bigint NOT NULL
);
INSERT INTO auth_epoch (only_row, epoch) VALUES (true, 0);

CREATE FUNCTION bump_auth_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE auth_epoch SET epoch = epoch + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER revoked_tokens_auth_epoch AFTER INSERT OR UPDATE ON revoked_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_epoch();
CREATE TRIGGER users_auth_epoch AFTER UPDATE OF tokens_valid_after, tokens_kept_jti, suspended_at OR DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_epoch();
`;
