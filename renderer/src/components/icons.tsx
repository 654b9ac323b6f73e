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

/* The areas of the sidebar, shown alone when it is collapsed to icons (a narrow window). */
const line = {
  ...base,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.5,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export const KeyIcon = () => (
  <svg {...line}>
    <circle cx="5" cy="8" r="2.75" />
    <path d="M7.75 8h6M11.5 8v2.5M13.75 8v2" />
  </svg>
);

export const QueueIcon = () => (
  <svg {...line}>
    <path d="M2.5 4h8M2.5 8h8M2.5 12h5" />
    <path d="M12 10.5v-6l2 1" />
    <circle cx="11" cy="11.5" r="1.25" />
  </svg>
);

export const SpeakerIcon = () => (
  <svg {...line}>
    <rect x="3.5" y="1.75" width="9" height="12.5" rx="1.5" />
    <circle cx="8" cy="9.5" r="2.25" />
    <circle cx="8" cy="4.75" r="0.6" />
  </svg>
);

export const TrafficIcon = () => (
  <svg {...line}>
    <path d="M2.5 5h10.5M10.5 2.5 13 5l-2.5 2.5" />
    <path d="M13.5 11H3M5.5 8.5 3 11l2.5 2.5" />
  </svg>
);

export const BoltIcon = () => (
  <svg {...line}>
    <path d="M9 1.75 3.5 9h4l-1 5.25L12.5 7h-4z" />
  </svg>
);

export const BracesIcon = () => (
  <svg {...line}>
    <path d="M5.5 2.5C4 2.5 4 3.5 4 5s-.5 2.5-1.75 3C3.5 8.5 4 9.5 4 11s0 2.5 1.5 2.5" />
    <path d="M10.5 2.5C12 2.5 12 3.5 12 5s.5 2.5 1.75 3C12.5 8.5 12 9.5 12 11s0 2.5-1.5 2.5" />
  </svg>
);

export const CheckServerIcon = () => (
  <svg {...line}>
    <path d="M8 1.75 13.25 4v3.5c0 3.25-2.25 5.5-5.25 6.75C5 13 2.75 10.75 2.75 7.5V4z" />
    <path d="m5.5 8 1.75 1.75L10.75 6" />
  </svg>
);

/* The fleet: many players, a crowd of dots. */
export const FleetIcon = () => (
  <svg {...line}>
    <circle cx="4.25" cy="5" r="1.75" />
    <circle cx="11.75" cy="5" r="1.75" />
    <circle cx="8" cy="10.5" r="1.75" />
    <path d="M1.75 14.25c.5-1.5 1.5-2.25 2.5-2.25M14.25 14.25c-.5-1.5-1.5-2.25-2.5-2.25" />
  </svg>
);

/* The theme switch: the system's scheme, light, dark. */
export const MonitorIcon = () => (
  <svg {...line}>
    <rect x="1.75" y="2.5" width="12.5" height="8.5" rx="1.25" />
    <path d="M5.5 13.75h5M8 11v2.75" />
  </svg>
);

export const SunIcon = () => (
  <svg {...line}>
    <circle cx="8" cy="8" r="2.75" />
    <path d="M8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1.06 1.06M11.54 11.54l1.06 1.06M3.4 12.6l1.06-1.06M11.54 4.46l1.06-1.06" />
  </svg>
);

export const MoonIcon = () => (
  <svg {...line}>
    <path d="M13.25 9.75A5.5 5.5 0 0 1 6.25 2.75a5.5 5.5 0 1 0 7 7z" />
  </svg>
);
