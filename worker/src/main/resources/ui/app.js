// The worker's live page: polls /ui/api/overview (this worker) and /ui/api/cluster (every worker, from the status
// topic) every second, and redraws the chosen answer when its graph's version changes. Read-only: GET requests only.
// URL parameters: graph (the graph to draw), algorithm, source, target, filter (the graphs table's filter).
"use strict";
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let lastTotal = null, lastTime = null, drawnKey = "", drawnGraph = null;
let chosen = params.get("graph") || "";   // the user's choice (URL or selector); empty: the worker's default
let me = "", local = [], cluster = { workers: [], graphs: [] };

function cell(tr, text, title) {
  const td = document.createElement("td");
  td.textContent = text;
  if (title !== undefined) td.title = title;
  tr.appendChild(td);
}

async function getJson(url) {
  const r = await fetch(url);
  return r.json();
}

async function refresh() {
  const o = await getJson("/ui/api/overview" + (chosen ? "?graph=" + encodeURIComponent(chosen) : ""));
  try { cluster = await getJson("/ui/api/cluster"); } catch (e) { cluster = { workers: [], graphs: [], error: String(e) }; }
  me = o.worker; local = o.graphs;
  $("me").textContent = me;
  $("clock").textContent = new Date(o.timeMs).toISOString().replace("T", " ").slice(0, 19) + " UTC";
  $("queries").textContent = o.queriesTotal;
  $("errors").textContent = o.errorsTotal;
  if (lastTotal !== null && o.timeMs > lastTime) {
    $("rate").textContent = ((o.queriesTotal - lastTotal) * 1000 / (o.timeMs - lastTime)).toFixed(1);
  }
  lastTotal = o.queriesTotal; lastTime = o.timeMs;
  renderWorkers();
  renderGraphs();
  renderLatency(o);
  renderSelect(o.draw.graphId);
  await maybeDraw(o.draw);
  recordLayout();
}

function renderWorkers() {
  $("cluster-note").textContent = cluster.error ? "(status topic: " + cluster.error + ")"
      : cluster.caughtUp === false ? "(reading the status topic...)" : "(from the status topic)";
  const body = $("workers").tBodies[0];
  body.replaceChildren();
  for (const w of cluster.workers) {
    const tr = document.createElement("tr");
    tr.dataset.worker = w.worker;
    if (!w.ready) tr.className = "down";
    const parts = w.partitions.map((p) => p.partition + " (" + (p.rebuilding ? "rebuilding" : p.lag < 0 ? "?" : p.lag) + ")").join(", ");
    [w.worker + (w.worker === me ? " (this page)" : ""), w.ready ? "yes" : "no", w.silent ? "silent" : w.state, parts || "none",
      w.graphs + (w.graphsOmitted ? " + " + w.graphsOmitted + " unlisted" : ""), w.heard].forEach((x) => cell(tr, x));
    body.appendChild(tr);
  }
}

/** Every worker's graphs (this worker's as it holds them now), those matching the filter. */
function renderGraphs() {
  const rows = cluster.graphs.filter((g) => g.worker !== me).concat(local.map((g) => Object.assign({ worker: me }, g)));
  rows.sort((a, b) => a.graphId < b.graphId ? -1 : a.graphId > b.graphId ? 1 : a.worker < b.worker ? -1 : 1);
  const f = $("filter").value.trim().toLowerCase();
  const shown = f ? rows.filter((g) => g.graphId.toLowerCase().includes(f) || g.worker.toLowerCase().includes(f)) : rows;
  const body = $("graphs").tBodies[0];
  body.replaceChildren();
  for (const g of shown) {
    const tr = document.createElement("tr");
    tr.dataset.graph = g.graphId;
    tr.dataset.worker = g.worker;
    if (g.worker === me) tr.classList.add("here");
    if (g.worker === me && g.drawable) {
      tr.classList.add("drawable");
      tr.title = "draw it";
      tr.addEventListener("click", () => choose(g.graphId));
    }
    cell(tr, g.graphId);
    cell(tr, g.versionLabel, "version " + g.version);
    [g.vertices, g.edges, g.backend, (g.residentBytes / 1048576).toFixed(1), g.partition < 0 ? "?" : g.partition, g.worker]
      .forEach((x) => cell(tr, x));
    body.appendChild(tr);
  }
  $("graph-count").textContent = f ? "(" + shown.length + " of " + rows.length + ")" : "(" + rows.length + ")";
  $("layout").dataset.graphRows = shown.length;
  $("layout").dataset.graphTotal = rows.length;
}

function renderLatency(o) {
  $("window").textContent = o.latencyWindow;
  const body = $("latency").tBodies[0];
  body.replaceChildren();
  for (const [k, l] of Object.entries(o.latencyMs)) {
    const tr = document.createElement("tr");
    [k, l.count, l.window, l.p50.toFixed(3), l.p99.toFixed(3), l.max.toFixed(3)].forEach((x) => cell(tr, x));
    body.appendChild(tr);
  }
}

function renderSelect(graph) {
  const select = $("graph");
  const ids = [""].concat(local.filter((g) => g.drawable).map((g) => g.graphId));
  if (ids.join() !== Array.from(select.options).map((x) => x.value).join()) {
    select.replaceChildren(...ids.map((id) => new Option(id || "(the default)", id)));
  }
  select.value = chosen && ids.includes(chosen) ? chosen : "";
  if (graph && !chosen) select.options[0].text = "(the default: " + graph + ")";
}

function choose(graph) {
  chosen = graph;
  refresh();
}

function hash(list) {  // FNV-1a over the highlighted edge list: the test compares it before and after an update
  let h = 0x811c9dc5;
  for (const x of list) { h ^= x; h = Math.imul(h, 0x01000193) >>> 0; }
  return h.toString(16);
}

async function maybeDraw(choice) {
  $("why").textContent = choice.graphId ? "drawn: " + choice.reason : "";
  const graph = choice.graphId;
  if (!graph) {
    const c = $("drawing");
    c.getContext("2d").clearRect(0, 0, c.width, c.height);
    $("summary").textContent = choice.reason;
    Object.assign($("answer").dataset, { graph: "", version: "", highlightCount: 0, highlightHash: "" });
    drawnKey = ""; drawnGraph = null;
    return;
  }
  if (drawnGraph !== null && graph !== drawnGraph) { $("source").value = ""; $("target").value = ""; }
  const version = (local.find((g) => g.graphId === graph) || {}).version;
  const key = [graph, version, $("algorithm").value, $("source").value, $("target").value].join("|");
  if (key === drawnKey) return;
  const q = new URLSearchParams({ algorithm: $("algorithm").value, source: $("source").value, target: $("target").value });
  const r = await fetch(`/ui/api/graphs/${encodeURIComponent(graph)}/view?${q}`);
  const v = await r.json();
  drawnKey = key; drawnGraph = graph;
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
  const held = local.find((g) => g.graphId === v.graphId);
  $("summary").textContent = `${v.graphId} version ${held && held.version === v.version ? held.versionLabel : v.version}: ${v.summary}`;
  const a = $("answer");
  a.dataset.graph = v.graphId; a.dataset.version = v.version;
  a.dataset.highlightCount = v.highlight.length / 2; a.dataset.highlightHash = hash(v.highlight);
}

/** Where the page's parts are (the browser test reads these): the graphs table's height, the drawing's top. */
function recordLayout() {
  const l = $("layout").dataset;
  l.tableHeight = Math.round($("graphs-box").getBoundingClientRect().height);
  l.drawingTop = Math.round($("drawing").getBoundingClientRect().top + window.scrollY);
  l.workers = cluster.workers.map((w) => w.worker).join(",");
}

for (const [k, id] of [["algorithm", "algorithm"], ["source", "source"], ["target", "target"]]) {
  if (params.get(k) !== null) $(id).value = params.get(k);
  $(id).addEventListener("change", () => refresh());
}
$("filter").value = params.get("filter") || "";
$("filter").addEventListener("input", () => { renderGraphs(); recordLayout(); });
$("graph").addEventListener("change", () => choose($("graph").value));
async function loop() { try { await refresh(); } catch (e) { $("summary").textContent = "worker unreachable: " + e; } setTimeout(loop, 1000); }
loop();
