/**
 * The player's states as a diagram drawn from the transition table itself, with the current state
 * highlighted and the edge of the last transition lit, so a state change is visible at a glance.
 */
import { useMemo } from 'react';
import type { PlayerMachineState, PlayerTransition, TransitionRow } from '@engine-api/player-types';
import styles from './StateDiagram.module.css';

const NODES: Record<PlayerMachineState, { x: number; y: number; label: string }> = {
  IDLE: { x: 80, y: 120, label: 'IDLE' },
  BUFFERING: { x: 250, y: 40, label: 'BUFFERING' },
  PLAYING: { x: 440, y: 40, label: 'PLAYING' },
  PAUSED: { x: 440, y: 200, label: 'PAUSED' },
  SUSPENDED: { x: 250, y: 200, label: 'SUSPENDED' },
};
const W = 104;
const H = 30;

interface Edge {
  from: PlayerMachineState;
  to: PlayerMachineState;
  rows: string[];
}

function edgesOf(table: TransitionRow[]): Edge[] {
  const edges = new Map<string, Edge>();
  for (const row of table) {
    if (row.to === 'same' || row.to === 'previous') continue;
    for (const from of row.from) {
      if (from === row.to) continue;
      const key = `${from}>${row.to}`;
      const edge = edges.get(key) ?? { from, to: row.to, rows: [] };
      edge.rows.push(row.id);
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/** A gentle curve; the two directions between a pair bend apart. */
function path(from: PlayerMachineState, to: PlayerMachineState): string {
  const a = NODES[from];
  const b = NODES[to];
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const nx = -dy / length;
  const ny = dx / length;
  const mx = (a.x + b.x) / 2 + nx * 18;
  const my = (a.y + b.y) / 2 + ny * 18;
  // Start and end at the box edges, not the centres.
  const clip = (p: { x: number; y: number }, towards: { x: number; y: number }) => {
    const ddx = towards.x - p.x;
    const ddy = towards.y - p.y;
    const t = Math.min(Math.abs((W / 2 + 4) / (ddx || 1e-9)), Math.abs((H / 2 + 4) / (ddy || 1e-9)));
    return { x: p.x + ddx * t, y: p.y + ddy * t };
  };
  const start = clip(a, { x: mx, y: my });
  const end = clip(b, { x: mx, y: my });
  return `M${start.x},${start.y} Q${mx},${my} ${end.x},${end.y}`;
}

export function StateDiagram({
  table,
  state,
  last,
}: {
  table: TransitionRow[];
  state: PlayerMachineState;
  last: PlayerTransition | undefined;
}) {
  const edges = useMemo(() => edgesOf(table), [table]);
  return (
    <svg
      className={styles.stateDiagram}
      viewBox="0 0 520 240"
      role="img"
      aria-label={`State diagram: the player is ${state}`}
    >
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className={styles.arrowHead} />
        </marker>
        <marker
          id="arrow-lit"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className={styles.arrowHead} data-lit="" />
        </marker>
      </defs>
      {edges.map((edge) => {
        const lit = last !== undefined && last.from === edge.from && last.to === edge.to;
        return (
          <path
            key={`${edge.from}>${edge.to}`}
            d={path(edge.from, edge.to)}
            className={styles.edge}
            data-lit={lit ? '' : undefined}
            markerEnd={`url(#${lit ? 'arrow-lit' : 'arrow'})`}
          >
            <title>{`${edge.from} → ${edge.to}: ${edge.rows.join(', ')}`}</title>
          </path>
        );
      })}
      {(Object.keys(NODES) as PlayerMachineState[]).map((name) => {
        const node = NODES[name];
        const current = name === state;
        return (
          <g key={name} className={styles.node} data-state={name} data-current={current}>
            <rect x={node.x - W / 2} y={node.y - H / 2} width={W} height={H} rx={6} />
            <text x={node.x} y={node.y + 4} textAnchor="middle">
              {node.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
