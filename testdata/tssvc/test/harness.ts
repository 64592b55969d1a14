/** A minimal test runner, so the sample needs no dependencies. */
export const registered: Array<[string, () => void]> = [];

export function test(name: string, fn: () => void): void {
  registered.push([name, fn]);
}

export function assertEqual<T>(got: T, want: T, what: string): void {
  if (got !== want) {
    throw new Error(`${what}: got ${String(got)}, want ${String(want)}`);
  }
}

export function assertThrows(fn: () => void, what: string): void {
  try {
    fn();
  } catch {
    return;
  }
  throw new Error(`${what}: did not throw`);
}
