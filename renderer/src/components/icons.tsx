/** Small line icons drawn in SVG, so they look the same whatever fonts the machine has. */
const base = { width: 14, height: 14, viewBox: '0 0 16 16', 'aria-hidden': true, fill: 'currentColor' } as const;

export const PlayIcon = () => (
  <svg {...base}>
    <path d="M4 2.5v11l9-5.5z" />
  </svg>
);

export const PauseIcon = () => (
  <svg {...base}>
    <rect x="3.5" y="2.5" width="3" height="11" rx="0.5" />
    <rect x="9.5" y="2.5" width="3" height="11" rx="0.5" />
  </svg>
);

export const SkipNextIcon = () => (
  <svg {...base}>
    <path d="M2.5 2.5v11l8-5.5z" />
    <rect x="11" y="2.5" width="2.5" height="11" rx="0.5" />
  </svg>
);

export const SkipPrevIcon = () => (
  <svg {...base}>
    <path d="M13.5 2.5v11l-8-5.5z" />
    <rect x="2.5" y="2.5" width="2.5" height="11" rx="0.5" />
  </svg>
);
