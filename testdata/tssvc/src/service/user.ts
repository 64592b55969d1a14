import { hashPassword, verifyPassword } from "../auth/password";
import { InvalidEmailError, Role, User, UserNotFoundError } from "../models/user";
import { UserRepository } from "../repository/repository";
import { isValidEmail, normalizeEmail } from "../util/email";

/** Account operations on top of a repository. */
export class UserService {
  constructor(private readonly repo: UserRepository, private readonly salt: string) {}

  /**
   * Finds the user with this e-mail address, ignoring case and the white
   * space around it.
   */
  findByEmail(email: string): User {
    const normalized = normalizeEmail(email);
    if (!isValidEmail(normalized)) {
      throw new InvalidEmailError(email);
    }
    const user = this.repo.getByEmail(normalized);
    if (user === undefined) {
      throw new UserNotFoundError(normalized);
    }
    return user;
  }

  /** Creates an account; the e-mail address must be free. */
  register(id: string, email: string, name: string, password: string): User {
    const normalized = normalizeEmail(email);
    if (!isValidEmail(normalized)) {
      throw new InvalidEmailError(email);
    }
    const user: User = {
      id,
      email: normalized,
      name,
      role: Role.Member,
      passwordHash: hashPassword(password, this.salt),
      disabled: false,
    };
    this.repo.save(user);
    return user;
  }

  /** Checks an e-mail address and password; disabled accounts cannot log in. */
  authenticate(email: string, password: string): User {
    const user = this.findByEmail(email);
    if (user.disabled || !verifyPassword(password, this.salt, user.passwordHash)) {
      throw new Error("wrong e-mail or password");
    }
    return user;
  }

  /** Disables an account; only admins may. */
  disable(actor: User, id: string): void {
    if (actor.role !== Role.Admin) {
      throw new Error("permission denied");
    }
    const user = this.repo.getById(id);
    if (user === undefined) {
      throw new UserNotFoundError(id);
    }
    this.repo.save({ ...user, disabled: true });
  }
}
