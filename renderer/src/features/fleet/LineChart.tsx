/**
 * A small line chart as inline SVG: series on one y scale from 0 to a rounded top, the top and
 * each series' last value and peak in words beside it (the chart is an image named by its title;
 * the figures are text). The last value alone read "requests 0" for a fleet that made 82, once
 * its ramp was over (ui-x3 U12): it is said as now, beside the peak.
 */
import { figure, niceMax, pointsAttribute, scalePoints } from './chart';
import styles from './LineChart.module.css';

export interface ChartSeries {
  name: string;
  values: readonly number[];
  /** A CSS colour (a state token). */
  color: string;
}

const BOX = { width: 300, height: 90 };

export function LineChart({ title, unit, series }: { title: string; unit: string; series: readonly ChartSeries[] }) {
  const top = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const last = (s: ChartSeries) => s.values[s.values.length - 1] ?? 0;
  const peak = (s: ChartSeries) => Math.max(0, ...s.values);
  const label = `${title}: ${series.map((s) => `${s.name} ${figure(last(s))} now, at most ${figure(peak(s))}`).join('; ')}; axis up to ${figure(top)}${unit}`;
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.caption}>{title}</figcaption>
      <div className={styles.plot}>
        <span className={styles.axis} aria-hidden="true">
          <span>
            {figure(top)}
            {unit}
          </span>
          <span>0</span>
        </span>
        <svg
          className={styles.svg}
          viewBox={`0 0 ${BOX.width} ${BOX.height}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={label}
        >
          <line className={styles.grid} x1={0} x2={BOX.width} y1={BOX.height / 2} y2={BOX.height / 2} />
          {series.map((s) => (
            <polyline
              key={s.name}
              points={pointsAttribute(scalePoints(s.values, top, BOX))}
              fill="none"
              stroke={s.color}
              strokeWidth={1.5}
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
      </div>
      <ul className={styles.legend} aria-hidden="true">
        {series.map((s) => (
          <li key={s.name}>
            <span className={styles.swatch} style={{ background: s.color }} />
            {s.name} <span className={styles.value}>{figure(last(s))}</span> now
            <span className={styles.peak}> · peak {figure(peak(s))}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
