import { MemoryUserRepository } from "../src/repository/memory";
import { UserService } from "../src/service/user";
import { assertEqual, assertThrows, test } from "./harness";

function newService(): UserService {
  return new UserService(new MemoryUserRepository(), "test-salt");
}

test("findByEmail ignores case and white space", () => {
  const svc = newService();
  svc.register("u1", "ada@example.com", "Ada", "pw");
  assertEqual(svc.findByEmail("  Ada@Example.COM ").id, "u1", "id");
});

test("findByEmail refuses a malformed address", () => {
  assertThrows(() => newService().findByEmail("not-an-email"), "malformed");
});

test("authenticate checks the password", () => {
  const svc = newService();
  svc.register("u1", "ada@example.com", "Ada", "pw");
  assertThrows(() => svc.authenticate("ada@example.com", "wrong"), "wrong password");
});
