import { User } from "../models/user";
import { DuplicateEmailError, UserRepository } from "./repository";

/** A repository in memory, indexed by id and by e-mail address. */
export class MemoryUserRepository implements UserRepository {
  private byId = new Map<string, User>();
  private byEmail = new Map<string, string>();

  getByEmail(email: string): User | undefined {
    const id = this.byEmail.get(email);
    return id === undefined ? undefined : this.byId.get(id);
  }

  getById(id: string): User | undefined {
    return this.byId.get(id);
  }

  save(user: User): void {
    const owner = this.byEmail.get(user.email);
    if (owner !== undefined && owner !== user.id) {
      throw new DuplicateEmailError(user.email);
    }
    this.byId.set(user.id, user);
    this.byEmail.set(user.email, user.id);
  }

  remove(id: string): boolean {
    const user = this.byId.get(id);
    if (user === undefined) {
      return false;
    }
    this.byEmail.delete(user.email);
    return this.byId.delete(id);
  }
}
