/**
 * The only thing the renderer gets from Electron: the typed engine bridge, as `window.cqc`.
 * No Node, no raw ipcRenderer; the main process checks every command again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL, type EngineBridge } from '../main/engine/api/bridge';
import type { EngineEvent } from '../main/engine/api/events';

const bridge: EngineBridge = {
  call: (name, input) => ipcRenderer.invoke(IPC_COMMAND_CHANNEL, name, input),
  subscribe: (listener) => {
    const forward = (_event: IpcRendererEvent, engineEvent: EngineEvent) => listener(engineEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('cqc', bridge);
