import { User } from "../models/user";

/** Where accounts are kept. Lookups by e-mail expect a normalized address. */
export interface UserRepository {
  getByEmail(email: string): User | undefined;
  getById(id: string): User | undefined;
  save(user: User): void;
  remove(id: string): boolean;
}

/** Raised when saving a user whose e-mail address another account already has. */
export class DuplicateEmailError extends Error {
  constructor(readonly email: string) {
    super(`e-mail ${email} is taken`);
  }
}
