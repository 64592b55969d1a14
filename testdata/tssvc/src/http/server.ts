import { Handlers, Request, Response } from "./handlers";

type Route = (req: Request) => Response;

/** A router from paths to handlers. */
export class Server {
  private routes = new Map<string, Route>();

  constructor(handlers: Handlers) {
    this.routes.set("/users", (req) => handlers.getUser(req));
    this.routes.set("/login", (req) => handlers.login(req));
  }

  /** Dispatches a request to its route, or answers 404. */
  dispatch(req: Request): Response {
    const route = this.routes.get(req.path);
    return route ? route(req) : { status: 404, body: { error: "no route" } };
  }
}
