/** Where a command writes: `process.stdout`/`process.stderr`, or a buffer in tests. */
export interface Output {
  write(text: string): unknown;
}
