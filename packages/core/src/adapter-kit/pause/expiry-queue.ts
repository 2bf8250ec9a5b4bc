/**
 * Keys ordered by when they expire (a binary min-heap): adding one and taking the earliest cost
 * O(log n), so forgetting expired entries never needs a sweep over all of them.
 *
 * @example
 * ```ts
 * const queue = new ExpiryQueue();
 * queue.add('run-1:1', Date.now() + 600_000);
 * for (const key of queue.takeExpired(Date.now())) entries.delete(key);
 * ```
 */
export class ExpiryQueue {
  private readonly times: number[] = [];
  private readonly keys: string[] = [];

  add(key: string, expiresAt: number): void {
    let index = this.keys.length;
    this.times.push(expiresAt);
    this.keys.push(key);
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.times[parent] <= expiresAt) break;
      this.move(parent, index);
      index = parent;
    }
    this.times[index] = expiresAt;
    this.keys[index] = key;
  }

  /** Removes and yields every key that expired before `now` (one expiring at `now` stays), earliest first. */
  *takeExpired(now: number): Generator<string> {
    while (this.keys.length > 0 && this.times[0] < now) yield this.takeFirst();
  }

  private takeFirst(): string {
    const first = this.keys[0];
    const lastTime = this.times.pop()!;
    const lastKey = this.keys.pop()!;
    const size = this.keys.length;
    if (size === 0) return first;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= size) break;
      const child = left + 1 < size && this.times[left + 1] < this.times[left] ? left + 1 : left;
      if (this.times[child] >= lastTime) break;
      this.move(child, index);
      index = child;
    }
    this.times[index] = lastTime;
    this.keys[index] = lastKey;
    return first;
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from];
    this.keys[to] = this.keys[from];
  }
}
