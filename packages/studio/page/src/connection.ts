// The connection banner: the server being reached, failed (with its stderr, collapsed, and how its
// process ended) or reconnecting; Reconnect tries again now.
import { api } from './api';
import { h, show } from './dom';
import type { ServerState } from './types';

const POLL_MS = 2000;

/** The server's stderr, collapsed unless the user opened it (kept open across the polls). */
function stderrBlock(element: Element, stderr: string): HTMLElement {
  const wasOpen = element.querySelector('details.stderr')?.hasAttribute('open') ?? false;
  return h(
    'details',
    { class: 'stderr', open: wasOpen },
    h('summary', {}, 'Server stderr'),
    h('pre', { 'aria-label': 'Server stderr' }, stderr),
  );
}

function exitText(exit: NonNullable<ServerState['connection']['exit']>): string {
  return `The server's process ended with ${exit.signal === null ? `exit code ${exit.code}` : `signal ${exit.signal}`}.`;
}

function describe(element: Element, state: ServerState, reconnect: () => void): Node[] {
  const { connection, server } = state;
  const words: Record<ServerState['connection']['state'], string> = {
    connecting: `Connecting to ${connection.target}…`,
    connected: `Connected to ${server ? `${server.name} ${server.version} (${server.protocolVersion})` : connection.target}`,
    failed: `Server failed: ${connection.target}`,
    reconnecting: `Reconnecting to ${connection.target}…`,
  };
  const nodes: Node[] = [h('p', { class: `state ${connection.state}` }, words[connection.state])];
  if (connection.error) nodes.push(h('p', { class: 'error' }, connection.error));
  if (connection.exit) nodes.push(h('p', { class: 'exit', 'aria-label': 'Server exit' }, exitText(connection.exit)));
  if (connection.state !== 'connected' && connection.state !== 'connecting')
    nodes.push(h('button', { type: 'button', onclick: reconnect }, 'Reconnect'));
  if (connection.stderr) nodes.push(stderrBlock(element, connection.stderr));
  return nodes;
}

/**
 * Shows the connection state and keeps it current; calls `onConnected` each time the server
 * becomes reachable (the first time, and after a restart) so the workflows are listed again.
 */
export function watchConnection(element: Element, onConnected: () => void): void {
  let last: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reconnect = (): void => {
    void api.reconnect().then(() => {
      clearTimeout(timer);
      void poll();
    });
  };
  const poll = async (): Promise<void> => {
    try {
      const state = await api.server();
      show(element, ...describe(element, state, reconnect));
      if (state.connection.state === 'connected' && last !== 'connected') onConnected();
      last = state.connection.state;
    } catch (error) {
      show(element, h('p', { class: 'state failed' }, `The studio does not answer: ${(error as Error).message}`));
      last = 'unreachable';
    }
    timer = setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
}
