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

/**
 * What is called at the end of the turn it registered in, if it is still registered then. The
 * turn's list runs through its members' own links (no entry is allocated per registration):
 * initialize both to `undefined` and leave them to this module.
 */
export interface AfterTurn {
  afterTurn(): void;
  turnPrevious: AfterTurn | undefined;
  turnNext: AfterTurn | undefined;
}

let first: AfterTurn | undefined;
let last: AfterTurn | undefined;
let scheduledWith: typeof setImmediate | undefined;

function endOfTurn(): void {
  scheduledWith = undefined;
  // Every member leaves the list before any is called: members added (or leaving) during these
  // calls belong to the next turn's list.
  const owners: AfterTurn[] = [];
  for (let owner = first; owner;) {
    const next: AfterTurn | undefined = owner.turnNext;
    owner.turnPrevious = owner.turnNext = undefined;
    owners.push(owner);
    owner = next;
  }
  first = last = undefined;
  for (const owner of owners) owner.afterTurn();
}

/**
 * Calls `owner.afterTurn()` at the end of this turn of the event loop, unless `leaveTurn(owner)`
 * is called first.
 *
 * @example
 * ```ts
 * afterThisTurn(watch); // watch.afterTurn() would start a timer
 * await quickWork;      // settled within the turn
 * leaveTurn(watch);     // so no timer was ever set
 * ```
 */
export function afterThisTurn(owner: AfterTurn): void {
  if (last) {
    last.turnNext = owner;
    owner.turnPrevious = last;
  } else {
    first = owner;
  }
  last = owner;
  if (scheduledWith !== setImmediate) {
    scheduledWith = setImmediate;
    setImmediate(endOfTurn);
  }
}

/** Takes `owner` off this turn's list; safe to call twice, after the turn ended, or for an owner never registered. */
export function leaveTurn(owner: AfterTurn): void {
  const { turnPrevious: previous, turnNext: next } = owner;
  if (previous === undefined && next === undefined && first !== owner) return;
  if (previous) previous.turnNext = next;
  else first = next;
  if (next) next.turnPrevious = previous;
  else last = previous;
  owner.turnPrevious = owner.turnNext = undefined;
}
