import { bindingOf, type DataSource } from '../../model';
import type { ExecutionScope } from '../plan/resolve-source';

/** Why a value is not known yet at a handoff: an element of a loop, a binding a remaining step will produce, or the resolver's own reason. */
export function pendingReason(source: DataSource, reason: string, scope: ExecutionScope): string {
  if (source.kind === 'item')
    return `from each element of the step's forEach array${source.path === undefined ? '' : ` (its '${source.path}')`}`;
  const binding = bindingOf(source);
  return binding !== undefined && !Object.hasOwn(scope.bindings, binding)
    ? `from the result bound as '${binding}' by an earlier remaining step`
    : reason;
}
