/**
 * Self-contained HTML report parts: inline SVG line charts and tables with no script and no
 * external resource, so a report opens offline and prints. The load tester's report and the
 * season simulator's (server/tools/src/sim) both draw with these. Pure strings, no IO.
 */

/** One line of a chart: [x, y] points (y null = gap). */
export interface Series {
  name: string;
  color: string;
  points: [number, number | null][];
}

export const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#ca8a04", "#db2777", "#4b5563"];

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A "nice" step (1, 2 or 5 x 10^n) giving about `count` ticks over `span`. */
function niceStep(span: number, count: number): number {
  if (!(span > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * power;
}

function tickLabel(v: number): string {
  if (v === 0) return "0";
  if (Math.abs(v) >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (Math.abs(v) >= 1e4) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(2)}`;
}

/**
 * An inline SVG line chart with axes, grid, ticks and a legend: no script, no external
 * resource, so the report opens offline and prints.
 */
export function lineChart(options: { title: string; xLabel: string; yLabel: string; series: Series[]; width?: number; height?: number }): string {
  const width = options.width ?? 860;
  const height = options.height ?? 260;
  const m = { left: 64, right: 16, top: 28, bottom: 44 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const all = options.series.flatMap((s) => s.points.filter((p): p is [number, number] => p[1] !== null && Number.isFinite(p[1])));
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs, xMin + 1) : 1;
  const yMaxRaw = ys.length ? Math.max(...ys) : 1;
  const yStep = niceStep(yMaxRaw || 1, 5);
  const yMax = Math.max(yStep, Math.ceil((yMaxRaw || 1) / yStep) * yStep);
  const x = (v: number) => m.left + ((v - xMin) / (xMax - xMin || 1)) * plotW;
  const y = (v: number) => m.top + plotH - (v / yMax) * plotH;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="${escapeHtml(options.title)}">`);
  parts.push(`<text x="${m.left}" y="18" font-size="14" font-weight="600">${escapeHtml(options.title)}</text>`);
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${m.left - 6}" y="${(y(v) + 4).toFixed(1)}" font-size="11" text-anchor="end" fill="#374151">${tickLabel(v)}</text>`);
  }
  const xStep = niceStep(xMax - xMin, 10);
  for (let v = Math.ceil(xMin / xStep) * xStep; v <= xMax + 1e-9; v += xStep) {
    parts.push(`<line x1="${x(v).toFixed(1)}" x2="${x(v).toFixed(1)}" y1="${m.top + plotH}" y2="${m.top + plotH + 4}" stroke="#6b7280"/>`);
    parts.push(`<text x="${x(v).toFixed(1)}" y="${m.top + plotH + 16}" font-size="11" text-anchor="middle" fill="#374151">${tickLabel(v)}</text>`);
  }
  parts.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + plotH}" stroke="#6b7280"/>`);
  parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${m.top + plotH}" y2="${m.top + plotH}" stroke="#6b7280"/>`);
  parts.push(`<text x="${m.left + plotW / 2}" y="${height - 6}" font-size="11" text-anchor="middle" fill="#374151">${escapeHtml(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${m.top + plotH / 2}) rotate(-90)" font-size="11" text-anchor="middle" fill="#374151">${escapeHtml(options.yLabel)}</text>`);
  for (const s of options.series) {
    let d = "";
    let pen = false;
    for (const [px, py] of s.points) {
      if (py === null || !Number.isFinite(py)) {
        pen = false;
        continue;
      }
      d += `${pen ? "L" : "M"}${x(px).toFixed(1)} ${y(py).toFixed(1)} `;
      pen = true;
    }
    if (d) parts.push(`<path d="${d.trim()}" fill="none" stroke="${s.color}" stroke-width="1.8"><title>${escapeHtml(s.name)}</title></path>`);
  }
  let lx = m.left + 8;
  const legendY = m.top + 10;
  for (const s of options.series) {
    parts.push(`<rect x="${lx}" y="${legendY - 8}" width="10" height="10" fill="${s.color}"/>`);
    parts.push(`<text x="${lx + 14}" y="${legendY + 1}" font-size="11" fill="#111827">${escapeHtml(s.name)}</text>`);
    lx += 24 + s.name.length * 6.5;
  }
  parts.push("</svg>");
  return parts.join("");
}

export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c ?? "n/a")}</td>`).join("")}</tr>`).join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
