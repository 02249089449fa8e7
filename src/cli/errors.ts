/** An error caused by the user's input: printed as a message, never as a stack trace. */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UserError';
  }
}
