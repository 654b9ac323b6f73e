/** The frame: areas on the left, the open area in the middle, the status bar along the bottom. */
import { useEffect, type ComponentType } from 'react';
import { ApiPage } from '../features/api/ApiPage';
import { ConformancePage } from '../features/conformance/ConformancePage';
import { FaultsPage } from '../features/faults/FaultsPage';
import { OAuthPage } from '../features/oauth/OAuthPage';
import { PlayerPage } from '../features/player/PlayerPage';
import { QueuesPage } from '../features/queues/QueuesPage';
import { TrafficPage } from '../features/traffic/TrafficPage';
import { AREAS, areaFromHash, useNavStore, type AreaId } from '../stores/nav';
import { useEngineWiring } from '../stores/wiring';
import { Sidebar } from './Sidebar';
import { StatusBar } from './StatusBar';

const PAGES: Record<AreaId, ComponentType> = {
  oauth: OAuthPage,
  queues: QueuesPage,
  player: PlayerPage,
  traffic: TrafficPage,
  faults: FaultsPage,
  api: ApiPage,
  conformance: ConformancePage,
};

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export function AppShell() {
  useEngineWiring();
  const area = useNavStore((s) => s.area);
  const open = useNavStore((s) => s.open);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const target = AREAS.find((a) => a.key === event.key);
      if (target) open(target.id);
    };
    const onHash = () => open(areaFromHash(window.location.hash));
    window.addEventListener('keydown', onKey);
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('hashchange', onHash);
    };
  }, [open]);

  const Page = PAGES[area];
  return (
    <div className="app">
      <Sidebar />
      <main className="content">
        <Page />
      </main>
      <StatusBar />
    </div>
  );
}
