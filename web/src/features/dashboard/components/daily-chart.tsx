import { formatDay } from '../lib/format';

export interface ChartPoint {
  day: string;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 8 };

/**
 * A bar per day, drawn in SVG (no chart library). The figures are also in a visually hidden
 * table, so a screen reader gets the numbers rather than a picture of them.
 */
export function DailyChart({
  points,
  label,
  format,
}: {
  points: ChartPoint[];
  label: string;
  format: (value: number) => string;
}) {
  const max = Math.max(1, ...points.map((point) => Math.abs(point.value)));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = (WIDTH - PAD.left - PAD.right) / Math.max(points.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const labelEvery = Math.ceil(points.length / 6);

  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full"
        role="img"
        aria-label={`${label} per day`}
      >
        <text x={PAD.left} y={PAD.top - 2} className="fill-slate-500 text-[10px]">
          {`Peak ${format(Math.max(0, ...points.map((point) => point.value)))}`}
        </text>
        <line
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
          className="stroke-slate-300"
        />
        {points.map((point, index) => {
          const height = (Math.max(point.value, 0) / max) * plotHeight;
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          return (
            <g key={point.day}>
              <rect
                x={x}
                y={HEIGHT - PAD.bottom - height}
                width={barWidth}
                height={height}
                rx={2}
                className="fill-indigo-500"
              >
                <title>{`${formatDay(point.day)}: ${format(point.value)}`}</title>
              </rect>
              {index % labelEvery === 0 && (
                <text
                  x={x + barWidth / 2}
                  y={HEIGHT - 6}
                  textAnchor="middle"
                  className="fill-slate-500 text-[10px]"
                >
                  {formatDay(point.day)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{label} per day</caption>
        <tbody>
          {points.map((point) => (
            <tr key={point.day}>
              <th scope="row">{point.day}</th>
              <td>{format(point.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
