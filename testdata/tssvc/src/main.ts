import { Handlers } from "./http/handlers";
import { Server } from "./http/server";
import { MemoryUserRepository } from "./repository/memory";
import { UserService } from "./service/user";

/** Wires the repository, service, handlers and router, and starts serving. */
export function main(): Server {
  const repo = new MemoryUserRepository();
  const users = new UserService(repo, "sample-salt");
  const handlers = new Handlers(users, () => Math.floor(Date.now() / 1000));
  return new Server(handlers);
}

main();
