// The worker's live page: polls /ui/api/overview every second, redraws the chosen answer when its graph's version
// changes. Read-only: it only issues GET requests.
"use strict";
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let lastTotal = null, lastTime = null, drawnKey = "", versions = {};

function cell(tr, text) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }

async function overview() {
  const o = await (await fetch("/ui/api/overview")).json();
  $("clock").textContent = new Date(o.timeMs).toISOString();
  $("queries").textContent = o.queriesTotal;
  $("errors").textContent = o.errorsTotal;
  if (lastTotal !== null && o.timeMs > lastTime) {
    $("rate").textContent = ((o.queriesTotal - lastTotal) * 1000 / (o.timeMs - lastTime)).toFixed(1);
  }
  lastTotal = o.queriesTotal; lastTime = o.timeMs;
  const body = $("graphs").tBodies[0];
  body.replaceChildren();
  const select = $("graph"), chosen = select.value || params.get("graph") || "";
  const options = [];
  versions = {};
  for (const g of o.graphs) {
    const tr = document.createElement("tr");
    [g.graphId, g.version, g.vertices, g.edges, g.backend, (g.residentBytes / 1048576).toFixed(1), g.partition]
      .forEach((x) => cell(tr, x));
    body.appendChild(tr);
    versions[g.graphId] = g.version;
    if (g.drawable) options.push(g.graphId);
  }
  if (options.join() !== Array.from(select.options).map((x) => x.value).join()) {
    select.replaceChildren(...options.map((id) => new Option(id, id)));
  }
  if (options.includes(chosen)) select.value = chosen;
  const lat = $("latency").tBodies[0];
  lat.replaceChildren();
  for (const [k, l] of Object.entries(o.latencyMs)) {
    const tr = document.createElement("tr");
    [k, l.count, l.p50.toFixed(2), l.p99.toFixed(2), l.max.toFixed(2)].forEach((x) => cell(tr, x));
    lat.appendChild(tr);
  }
  await maybeDraw();
}

function hash(list) {  // FNV-1a over the highlighted edge list: the test compares it before and after an update
  let h = 0x811c9dc5;
  for (const x of list) { h ^= x; h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
}

async function maybeDraw() {
  const graph = $("graph").value;
  if (!graph) return;
  const key = [graph, versions[graph], $("algorithm").value, $("source").value, $("target").value].join("|");
  if (key === drawnKey) return;
  const q = new URLSearchParams({ algorithm: $("algorithm").value, source: $("source").value, target: $("target").value });
  const r = await fetch(`/ui/api/graphs/${encodeURIComponent(graph)}/view?${q}`);
  const v = await r.json();
  drawnKey = key;
  if (!r.ok) { $("summary").textContent = v.error; return; }
  if ($("source").value === "") $("source").value = v.source;
  draw(v);
}

function draw(v) {
  const c = $("drawing"), ctx = c.getContext("2d"), p = v.positions, m = 20;
  const X = (i) => m + p[2 * i] * (c.width - 2 * m), Y = (i) => m + p[2 * i + 1] * (c.height - 2 * m);
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.strokeStyle = "#c9d1d9"; ctx.lineWidth = 0.6; ctx.beginPath();
  for (let k = 0; k < v.edges.length; k += 2) { ctx.moveTo(X(v.edges[k]), Y(v.edges[k])); ctx.lineTo(X(v.edges[k + 1]), Y(v.edges[k + 1])); }
  ctx.stroke();
  ctx.strokeStyle = v.algorithm === "mst" ? "#1a7f37" : "#cf222e"; ctx.lineWidth = v.target === null ? 1.4 : 3; ctx.beginPath();
  for (let k = 0; k < v.highlight.length; k += 2) { ctx.moveTo(X(v.highlight[k]), Y(v.highlight[k])); ctx.lineTo(X(v.highlight[k + 1]), Y(v.highlight[k + 1])); }
  ctx.stroke();
  if (v.algorithm !== "mst") {
    const s = v.source - v.firstVertexId;
    ctx.fillStyle = "#0969da"; ctx.beginPath(); ctx.arc(X(s), Y(s), 6, 0, 2 * Math.PI); ctx.fill();
  }
  $("summary").textContent = `${v.graphId} version ${v.version}: ${v.summary}`;
  const a = $("answer");
  a.dataset.graph = v.graphId; a.dataset.version = v.version;
  a.dataset.highlightCount = v.highlight.length / 2; a.dataset.highlightHash = hash(v.highlight);
}

for (const [k, id] of [["algorithm", "algorithm"], ["source", "source"], ["target", "target"]]) {
  if (params.get(k) !== null) $(id).value = params.get(k);
  $(id).addEventListener("change", () => maybeDraw());
}
$("graph").addEventListener("change", () => maybeDraw());
async function loop() { try { await overview(); } catch (e) { $("summary").textContent = "worker unreachable: " + e; } setTimeout(loop, 1000); }
loop();
