/**
 * Work deferred to the end of the event loop's current turn, for the whole process: one
 * `setImmediate` per turn, however many entries. A step's try registers here as it starts and
 * leaves as it ends, so the many tries that settle within the turn they started (a tool in
 * process answers in microtasks) never set a timer or add a listener; one still running when the
 * turn ends is called then (`AfterTurn.afterTurn`) to start watching its deadline and its request.
 *
 * `setImmediate` is looked up when the turn's call is scheduled, so fake timers in a test drive it
 * as they drive any timer, and a call scheduled with another `setImmediate` (one that never ran,
 * from timers a test since restored) is scheduled again.
 */

/** What is called at the end of the turn it registered in, if it is still registered then. */
export interface AfterTurn {
  afterTurn(): void;
}

/** A registration: `cancel()` it when the work ended within the turn. */
export class TurnEntry {
  /** @internal */
  previous: TurnEntry | undefined = undefined;
  /** @internal */
  next: TurnEntry | undefined = undefined;

  constructor(readonly owner: AfterTurn) {}

  /** Leaves the turn's list; safe to call twice, or after the turn ended. */
  cancel(): void {
    const { previous, next } = this;
    if (previous === undefined && next === undefined && first !== this) return;
    if (previous) previous.next = next;
    else first = next;
    if (next) next.previous = previous;
    else last = previous;
    this.previous = this.next = undefined;
  }
}

let first: TurnEntry | undefined;
let last: TurnEntry | undefined;
let scheduledWith: typeof setImmediate | undefined;

function endOfTurn(): void {
  scheduledWith = undefined;
  // Every entry leaves the list before any is called: entries added (or cancelled) by these calls
  // belong to the next turn's list.
  const owners: AfterTurn[] = [];
  for (let entry = first; entry;) {
    const { next } = entry;
    entry.previous = entry.next = undefined;
    owners.push(entry.owner);
    entry = next;
  }
  first = last = undefined;
  for (const owner of owners) owner.afterTurn();
}

/**
 * Calls `owner.afterTurn()` at the end of this turn of the event loop, unless the returned entry
 * is cancelled first.
 *
 * @example
 * ```ts
 * const entry = afterThisTurn({ afterTurn: () => startTimer() });
 * await quickWork; // settled within the turn
 * entry.cancel();  // so no timer was ever set
 * ```
 */
export function afterThisTurn(owner: AfterTurn): TurnEntry {
  const entry = new TurnEntry(owner);
  if (last) {
    last.next = entry;
    entry.previous = last;
  } else {
    first = entry;
  }
  last = entry;
  if (scheduledWith !== setImmediate) {
    scheduledWith = setImmediate;
    setImmediate(endOfTurn);
  }
  return entry;
}
