import { randomBytes } from 'node:crypto';
import { StateSealer, type StateSealingOptions } from '../../engine';

const sealers = new WeakMap<StateSealingOptions, StateSealer>();
let processSealer: StateSealer | undefined;

/**
 * The sealer for a server's `pause` options, built once per options object: with a server per
 * request (`createMcpHandler`), keys are not derived again on every request. Without options, one
 * random key per process — enough for a single instance, not for several behind a load balancer.
 */
export function stateSealer(options: StateSealingOptions | undefined): StateSealer {
  if (!options) return (processSealer ??= new StateSealer({ keys: [randomBytes(32)] }));
  let sealer = sealers.get(options);
  if (!sealer) {
    sealer = new StateSealer(options);
    sealers.set(options, sealer);
  }
  return sealer;
}
