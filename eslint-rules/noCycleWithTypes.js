/**
 * `local/no-cycle-with-types`: no circle of relative imports, type-only imports included.
 *
 * import-x/no-cycle (4.x) skips `import type` by design, with no option to count it: a type
 * circle cannot run half-loaded. Outside the server we refuse those circles too (issue 26),
 * because they are where a package's parts stop having a direction: a screen that types its
 * props from the screen that renders it, a REST answer and a room message each declaring half
 * of the other. The fix is always the same: move the shared type beside what both import.
 *
 * It follows relative imports only (packages meet by name and their direction has its own
 * rule), reads each file's `import`/`export ... from` lines as text (dynamic `import()` is a
 * lazy edge, not a circle), and resolves "./x.js" to x.ts/x.tsx and "./x" to x.ts, x.tsx or
 * x/index.ts(x), as TypeScript and Vite do.
 */
import fs from "node:fs";
import path from "node:path";

const IMPORT_LINE = /(?:^|[\s;])(?:import|export)\s(?:[^;'"]*?\sfrom\s*)?["'](\.{1,2}\/[^"']*)["']/g;

/** file -> { mtimeMs, deps } for one lint run (a changed file is read again). */
const depsCache = new Map();

function resolveImport(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = base.endsWith(".js") ? [`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`, base] : [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

function depsOf(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = depsCache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.deps;
  const text = fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const deps = [...new Set([...text.matchAll(IMPORT_LINE)].map((m) => resolveImport(file, m[1])).filter((d) => d !== null))];
  depsCache.set(file, { mtimeMs: stat.mtimeMs, deps });
  return deps;
}

/** The shortest chain of imports from `start` back to `target`, or null. */
function routeBack(start, target) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const dep of depsOf(file)) {
      if (dep === target) {
        const route = [file];
        for (let f = previous.get(file); f !== null; f = previous.get(f)) route.unshift(f);
        return route;
      }
      if (!previous.has(dep)) {
        previous.set(dep, file);
        queue.push(dep);
      }
    }
  }
  return null;
}

export const noCycleWithTypes = {
  meta: {
    type: "problem",
    docs: { description: "Refuse circles of relative imports, type-only imports included" },
    schema: [],
    messages: {
      cycle: "Import circle (type-only imports count here): {{route}}. Move what both need beside what both import.",
    },
  },
  create(context) {
    const filename = context.physicalFilename;
    if (!path.isAbsolute(filename)) return {};
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      const target = resolveImport(filename, spec);
      if (target === null || target === filename) return;
      const route = routeBack(target, filename);
      if (route === null) return;
      const cwd = context.cwd;
      context.report({ node, messageId: "cycle", data: { route: [filename, ...route, filename].map((f) => path.relative(cwd, f)).join(" -> ") } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default { rules: { "no-cycle-with-types": noCycleWithTypes } };
