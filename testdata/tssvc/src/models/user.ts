/** The role an account holds; admins may manage other accounts. */
export enum Role {
  Member = "member",
  Admin = "admin",
}

/** An account as the service stores it. */
export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string;
  disabled: boolean;
}

/** Raised when no account matches a lookup. */
export class UserNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no user ${key}`);
  }
}

/** Raised when an e-mail address is not well formed. */
export class InvalidEmailError extends Error {
  constructor(readonly email: string) {
    super(`malformed e-mail address ${JSON.stringify(email)}`);
  }
}

/** A copy of the user safe to send to clients: no password hash. */
export function publicView(user: User): Omit<User, "passwordHash"> {
  const { passwordHash, ...rest } = user;
  void passwordHash;
  return rest;
}
