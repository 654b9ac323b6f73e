/** The Electron transport: the bridge the preload script exposed as `window.cqc`. */
import type { EngineBridge } from '@engine-api/bridge';
import type { Transport } from './client';

declare global {
  interface Window {
    cqc?: EngineBridge;
  }
}

export function ipcTransport(bridge: EngineBridge): Transport {
  return {
    kind: 'ipc',
    call: (name, input) => bridge.call(name, input),
    subscribe: (listener) => bridge.subscribe(listener),
  };
}
