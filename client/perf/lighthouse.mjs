/* global process, fetch, console, localStorage -- a Node script; localStorage is read inside the page (page.evaluate) */
/**
 * Lighthouse on the production build (issue 30): the sign-in page signed out, and the overview
 * signed in as a fresh player, phone emulation (Lighthouse's default mobile profile: Moto G
 * Power, slow 4G, 4x CPU slowdown), driving Debian's Chromium. Prints the performance and
 * accessibility scores and the main metrics; docs/performance.md records a run.
 *
 * Run against a server serving client/dist (npm run build, then npm start or node server/dist/main.js):
 *   node client/perf/lighthouse.mjs http://127.0.0.1:3000 [--port 9222] [--out dir]
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import puppeteer from "puppeteer-core";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { port: { type: "string", default: "9222" }, out: { type: "string" } } });
const base = (positionals[0] ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

async function api(method, apiPath, body, token) {
  const res = await fetch(`${base}/api${apiPath}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A fresh player with its tutorial done: the overview is what it sees. */
async function player() {
  const id = Math.random().toString(36).slice(2, 10);
  const reg = await api("POST", "/auth/register", {
    email: `lh${id}@example.com`,
    username: `lh${id}`,
    password: "lighthouse1",
    countryName: `Lighthouse ${id}`,
    governmentType: "monarchy",
    startingResources: {},
  });
  await api("POST", "/user/tutorial-complete", undefined, reg.token);
  return reg.token;
}

const chrome = await chromeLauncher.launch({
  chromePath,
  port: Number(values.port),
  chromeFlags: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const results = [];
try {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const runs = [
    { name: "sign-in", url: `${base}/`, token: null },
    { name: "overview", url: `${base}/#/overview`, token: await player() },
  ];
  for (const run of runs) {
    const page = await browser.newPage();
    if (run.token) {
      // signed in as after a login: the token in local storage, kept by Lighthouse (no storage reset)
      await page.goto(`${base}/404-lighthouse-setup`);
      await page.evaluate((token) => localStorage.setItem("access_token", token), run.token);
    }
    const result = await lighthouse(run.url, { port: chrome.port, output: "json", onlyCategories: ["performance", "accessibility"], disableStorageReset: Boolean(run.token), logLevel: "error" }, undefined, page);
    const lhr = result.lhr;
    const metric = (id) => lhr.audits[id]?.displayValue ?? "n/a";
    const row = {
      page: run.name,
      performance: Math.round(lhr.categories.performance.score * 100),
      accessibility: Math.round(lhr.categories.accessibility.score * 100),
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      si: metric("speed-index"),
      failedA11y: lhr.categories.accessibility.auditRefs.filter((r) => r.weight > 0 && lhr.audits[r.id].score !== null && lhr.audits[r.id].score < 1).map((r) => r.id),
    };
    results.push(row);
    if (values.out) {
      fs.mkdirSync(values.out, { recursive: true });
      fs.writeFileSync(path.join(values.out, `lighthouse-${run.name}.json`), result.report);
    }
    await page.close();
  }
  await browser.disconnect();
} finally {
  await chrome.kill();
}
console.log(`Lighthouse ${lighthouse.version ?? "12"} (mobile) on ${base}`);
console.table(results.map(({ failedA11y, ...r }) => r));
for (const r of results) if (r.failedA11y.length) console.log(`${r.page}: accessibility audits not passed: ${r.failedA11y.join(", ")}`);
