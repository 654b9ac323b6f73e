/**
 * The IPC adapter over the engine's command and event tables: the twin of the admin API. Only
 * the console's own renderer frame may call; everything else is refused before the engine sees it.
 */
import { ipcMain, webContents, type WebFrameMain } from 'electron';
import { IPC_COMMAND_CHANNEL, IPC_EVENT_CHANNEL } from '../engine/api/bridge.js';
import { UI_OMITTED_EVENTS } from '../engine/api/events.js';
import type { Engine } from '../engine/index.js';

export function installIpc(engine: Engine, isTrustedFrame: (frame: WebFrameMain | null) => boolean): () => void {
  ipcMain.handle(IPC_COMMAND_CHANNEL, (event, name: unknown, input: unknown) => {
    if (!isTrustedFrame(event.senderFrame)) {
      return { ok: false, error: { code: 'invalid_input', message: 'this frame may not call the engine' } };
    }
    return engine.commands.call(name, input);
  });
  const unsubscribe = engine.events.subscribe((event) => {
    for (const contents of webContents.getAllWebContents()) {
      if (!contents.isDestroyed() && isTrustedFrame(contents.mainFrame)) contents.send(IPC_EVENT_CHANNEL, event);
    }
  }, UI_OMITTED_EVENTS);
  return () => {
    ipcMain.removeHandler(IPC_COMMAND_CHANNEL);
    unsubscribe();
  };
}
