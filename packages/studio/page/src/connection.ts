// The connection banner: the server being reached, failed (with its stderr) or reconnecting.
import { api } from './api';
import { h, show } from './dom';
import type { ServerState } from './types';

const POLL_MS = 2000;

function describe(state: ServerState): Node[] {
  const { connection, server } = state;
  const words: Record<ServerState['connection']['state'], string> = {
    connecting: `Connecting to ${connection.target}…`,
    connected: `Connected to ${server ? `${server.name} ${server.version} (${server.protocolVersion})` : connection.target}`,
    failed: `Server failed: ${connection.target}`,
    reconnecting: `Reconnecting to ${connection.target}…`,
  };
  const nodes: Node[] = [h('p', { class: `state ${connection.state}` }, words[connection.state])];
  if (connection.error) nodes.push(h('p', { class: 'error' }, connection.error));
  if (connection.stderr) nodes.push(h('pre', { 'aria-label': 'Server stderr' }, connection.stderr));
  return nodes;
}

/**
 * Shows the connection state and keeps it current; calls `onConnected` each time the server
 * becomes reachable (the first time, and after a restart) so the workflows are listed again.
 */
export function watchConnection(element: Element, onConnected: () => void): void {
  let last: string | undefined;
  const poll = async (): Promise<void> => {
    try {
      const state = await api.server();
      show(element, ...describe(state));
      if (state.connection.state === 'connected' && last !== 'connected') onConnected();
      last = state.connection.state;
    } catch (error) {
      show(element, h('p', { class: 'state failed' }, `The studio does not answer: ${(error as Error).message}`));
      last = 'unreachable';
    }
    setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
}
