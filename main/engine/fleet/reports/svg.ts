/** Line charts as inline SVG: a fleet's HTML report carries its charts with no script and no asset. */
import { escapeHtml } from '../../conformance/reports/html.js';

export interface Line {
  label: string;
  color: string;
  values: number[];
}

const W = 640;
const H = 180;
const PAD = 32;

/** One chart: x is the tick's engine second, y from 0 to the largest value. */
export function lineChart(title: string, xs: number[], lines: Line[]): string {
  const maxY = Math.max(1, ...lines.flatMap((l) => l.values));
  const maxX = Math.max(1, ...xs);
  const x = (v: number) => PAD + ((W - 2 * PAD) * v) / maxX;
  const y = (v: number) => H - PAD + (-(H - 2 * PAD) * v) / maxY;
  const paths = lines
    .map((line) => {
      const points = line.values.map((v, i) => `${x(xs[i] ?? 0).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
      return `<polyline fill="none" stroke="${line.color}" stroke-width="1.5" points="${points}"><title>${escapeHtml(line.label)}</title></polyline>`;
    })
    .join('');
  const legend = lines
    .map(
      (line, i) =>
        `<text x="${PAD + i * 120}" y="14" font-size="11" fill="${line.color}">■ ${escapeHtml(line.label)}</text>`,
    )
    .join('');
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="#999"/><line x1="${PAD}" y1="${PAD}" x2="${PAD}" y2="${H - PAD}" stroke="#999"/>
<text x="${PAD - 4}" y="${PAD}" font-size="10" text-anchor="end">${maxY}</text><text x="${PAD - 4}" y="${H - PAD}" font-size="10" text-anchor="end">0</text>
<text x="${W - PAD}" y="${H - PAD + 14}" font-size="10" text-anchor="end">${Math.round(maxX)} s</text>
${legend}${paths}</svg></figure>`;
}
