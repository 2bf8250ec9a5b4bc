import { isIndexSegment, parseFieldPath, type DataSource } from '../../model';

/** What a step can read while it runs: the prompt's arguments and the earlier steps' bindings. */
export interface ExecutionScope {
  readonly args: Readonly<Record<string, string | undefined>>;
  /** Values by binding name; a binding is set once its step completed (own properties only). */
  readonly bindings: Readonly<Record<string, unknown>>;
  /** Answers to the running step's questions, by question key (own properties only). */
  readonly answers?: Readonly<Record<string, unknown>>;
  /** Inside a `forEach` iteration: the element `item()` reads. */
  readonly iteration?: { readonly index: number; readonly item: unknown };
}

/** A resolved value, or why there is none. */
export type Resolution = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** Reads one data source against a scope; built once per data source at `use()`. */
export type Resolver = (scope: ExecutionScope) => Resolution;

/**
 * Plans a data source's resolver: field paths are split once, not per request. An ask reads the
 * answer to its question, found under `questionKey` once the client has answered.
 */
export function planResolver(source: DataSource, questionKey = ''): Resolver {
  switch (source.kind) {
    case 'promptArg': {
      const { name } = source;
      const missing: Resolution = { ok: false, reason: `prompt argument '${name}' was not provided` };
      return (scope) => {
        const value = scope.args[name];
        return value === undefined ? missing : { ok: true, value };
      };
    }
    case 'constant': {
      const resolution: Resolution = { ok: true, value: source.value };
      return () => resolution;
    }
    case 'fromStep': {
      const { binding } = source;
      const unbound: Resolution = { ok: false, reason: `binding '${binding}' has no value yet` };
      return (scope) => (Object.hasOwn(scope.bindings, binding) ? { ok: true, value: scope.bindings[binding] } : unbound);
    }
    case 'item': {
      const { path } = source;
      const segments = path === undefined ? [] : (parseFieldPath(path) ?? []);
      const read = path === undefined ? 'item()' : `item('${path}')`;
      const wording: PathWording = { missing: `${read} is not in the element`, whole: 'the element', undefined: `${read} is undefined` };
      return (scope) => {
        if (!scope.iteration) return { ok: false, reason: 'item() reads the current element, and this step has no forEach' };
        return readPath(scope.iteration.item, segments, wording);
      };
    }
    case 'field': {
      const { binding, path } = source;
      const segments = parseFieldPath(path) ?? [];
      const wording: PathWording = {
        missing: `field '${path}' is not in binding '${binding}'`,
        whole: 'the output',
        undefined: `field '${path}' of binding '${binding}' is undefined`,
      };
      const unbound: Resolution = { ok: false, reason: `binding '${binding}' has no value yet` };
      return (scope) => (Object.hasOwn(scope.bindings, binding) ? readPath(scope.bindings[binding], segments, wording) : unbound);
    }
    case 'askUser':
    case 'askModel': {
      // The reason names the question by key: its text holds the client's arguments, which only
      // the places that mark client text may quote (see `pendingReason`).
      const unanswered: Resolution = {
        ok: false,
        reason: `the ${source.kind === 'askUser' ? 'user' : 'model'} has not answered question '${questionKey}'`,
      };
      return (scope) =>
        scope.answers && Object.hasOwn(scope.answers, questionKey) ? { ok: true, value: scope.answers[questionKey] } : unanswered;
    }
  }
}

/** How a path that leads nowhere is described: `field 'a.b' is not in binding 'x'`, or `item('a.b') is not in the element`. */
interface PathWording {
  readonly missing: string;
  readonly whole: string;
  readonly undefined: string;
}

function readPath(root: unknown, segments: readonly string[], wording: PathWording): Resolution {
  let value = root;
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index];
    if (Array.isArray(value) && isIndexSegment(segment) && Number(segment) < value.length) {
      value = value[Number(segment)];
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, segment)) {
      value = (value as Record<string, unknown>)[segment];
    } else {
      const at = segments.slice(0, index).join('.');
      return {
        ok: false,
        reason: `${wording.missing}: ${at ? `'${at}'` : wording.whole} is ${describeValue(value)} and has no '${segment}'`,
      };
    }
  }
  return value === undefined ? { ok: false, reason: wording.undefined } : { ok: true, value };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
