import { TOKEN_TTL_SECONDS, issueToken, verifyToken } from "../src/auth/token";
import { assertEqual, assertThrows, test } from "./harness";

test("a fresh token verifies", () => {
  const s = issueToken("u1", 1000);
  assertEqual(verifyToken(s, 1000 + TOKEN_TTL_SECONDS - 1), "u1", "user");
});

test("an expired token is refused", () => {
  const s = issueToken("u1", 1000);
  assertThrows(() => verifyToken(s, 1000 + TOKEN_TTL_SECONDS), "expired");
});
