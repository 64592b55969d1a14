import { issueToken } from "../auth/token";
import { publicView } from "../models/user";
import { UserService } from "../service/user";

/** A request as the tiny router hands it over. */
export interface Request {
  path: string;
  query: Record<string, string>;
  body: Record<string, string>;
}

/** What a handler answers. */
export interface Response {
  status: number;
  body: unknown;
}

/** Handlers bind the service to HTTP routes. */
export class Handlers {
  constructor(private readonly users: UserService, private readonly clock: () => number) {}

  /** GET /users?email=… looks a user up by e-mail address. */
  getUser(req: Request): Response {
    try {
      const user = this.users.findByEmail(req.query["email"] ?? "");
      return { status: 200, body: publicView(user) };
    } catch (err) {
      return { status: 404, body: { error: String(err) } };
    }
  }

  /** POST /login checks the credentials and issues a session token. */
  login(req: Request): Response {
    try {
      const user = this.users.authenticate(req.body["email"] ?? "", req.body["password"] ?? "");
      return { status: 200, body: issueToken(user.id, this.clock()) };
    } catch (err) {
      return { status: 401, body: { error: String(err) } };
    }
  }
}
