/** A serving helper needs an SDK package that is an optional peer dependency of mcpflow, and it is not installed. */
export class MissingServingPackageError extends Error {
  constructor(
    readonly packageName: string,
    helper: string,
    cause: unknown,
  ) {
    super(`${helper} needs ${packageName}, which is not installed. Fix: npm install ${packageName}`, { cause });
    this.name = 'MissingServingPackageError';
  }
}
