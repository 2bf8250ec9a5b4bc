import { bindingOf, isAskSource, type DataSource } from '../../model';
import { fillText } from '../asking/question';
import type { ExecutionScope } from '../plan/resolve-source';

/**
 * Why a value is not known yet at a handoff: an element of a loop, a binding a remaining step will
 * produce, a question not answered (its text, the prompt arguments in it marked by `client`), or
 * the resolver's own reason.
 */
export function pendingReason(source: DataSource, reason: string, scope: ExecutionScope, client: (text: string) => string): string {
  if (isAskSource(source))
    return `the ${source.kind === 'askUser' ? 'user' : 'model'} has not answered "${fillText(source, scope.args, client)}"`;
  if (source.kind === 'item')
    return `from each element of the step's forEach array${source.path === undefined ? '' : ` (its '${source.path}')`}`;
  const binding = bindingOf(source);
  return binding !== undefined && !Object.hasOwn(scope.bindings, binding)
    ? `from the result bound as '${binding}' by an earlier remaining step`
    : reason;
}
