// The map of `mdcontract graph`: the repo's files in their folders, the
// references and contracts between them, the findings drawn on both.
// Written for this page (no library); every string from the repo goes into
// the page through textContent or an attribute, never as markup.
"use strict";
(function () {
  const started = performance.now();
  const data = JSON.parse(document.getElementById("graph-data").textContent);
  const G = data.graph;
  const SVG = "http://www.w3.org/2000/svg";

  // Sizes of the layout, in SVG units.
  const NODE_W = 176, NODE_H = 18, ROW = 22, COL = 186, PAD = 8, HEAD = 22, LAYER_IN = 8;
  const GAP = 14, LAYER_GAP = 40, BOX_W = 176, BOX_H = 42, PLUGIN_HEAD = 30, PLUGIN_GAP = 40, PLUGIN_LAYER_GAP = 80;
  // Above this many files the map opens with one box a folder.
  const SUMMARY_ABOVE = 1500;

  const KIND_COLOR = {
    "skill": "#3b6fb6", "skill-resource": "#9ab8de", "agent": "#e8892b", "agent-body": "#b5651d",
    "command": "#54a24b", "prompt": "#8fb845", "memory": "#8e6bbf", "manifest": "#5f5f5f",
    "other": "#a6a6a2", "file": "#d0d0cc", "folder": "#d0d0cc", "missing": "#d62728",
  };
  const EDGE_STYLE = {
    link: { color: "#5b7fa8", width: 1, dash: "", text: "link" },
    section: { color: "#2a9d8f", width: 1.3, dash: "6 2", text: "§ reference" },
    dispatch: { color: "#e8892b", width: 1.6, dash: "", text: "dispatch" },
    skill: { color: "#3b6fb6", width: 1.4, dash: "2 2", text: "skill named" },
    copy: { color: "#54a24b", width: 2.2, dash: "", text: "copy" },
    registry: { color: "#8c6d31", width: 1.3, dash: "6 2 2 2", text: "registry use" },
    manifest: { color: "#8a8a8a", width: 1, dash: "1 3", text: "manifest entry" },
  };
  const kindColor = (k) => KIND_COLOR[k] || "#17a2b8";

  // --- the data, indexed ---------------------------------------------------
  const nodes = G.nodes || [], edges = G.edges || [], findings = G.findings || [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const outOf = new Map(), inTo = new Map(), findingsOf = new Map();
  for (const n of nodes) { outOf.set(n.id, []); inTo.set(n.id, []); findingsOf.set(n.id, []); }
  edges.forEach((e, i) => { e.i = i; outOf.get(e.from).push(e); inTo.get(e.to).push(e); });
  findings.forEach((f) => { if (findingsOf.has(f.path)) findingsOf.get(f.path).push(f); });

  // Hubs: the files the most other files cite (the top 3%, cited by 4 at least).
  const indeg = nodes.map((n) => n.in).sort((a, b) => b - a);
  const hubMin = Math.max(4, indeg[Math.floor(indeg.length * 0.03)] || 0);
  for (const n of nodes) n.hub = n.in >= hubMin;

  // Plugins hold groups (folders), groups hold files. The layout (Go's
  // graph.Layout) says their order: the plugins and each plugin's folders
  // in layers, what the others rely on above, and each folder's files in
  // a grid, in layers too; this page only packs the boxes, a layer a row.
  const L = data.layout || { plugins: [], groups: {}, cells: {} };
  const plugins = new Map();
  for (const n of nodes) {
    if (!plugins.has(n.plugin)) plugins.set(n.plugin, { id: n.plugin, groups: new Map() });
    const p = plugins.get(n.plugin);
    const key = n.plugin + "\u0000" + n.group;
    if (!p.groups.has(key)) p.groups.set(key, { key, plugin: n.plugin, name: n.group, nodes: [] });
    p.groups.get(key).nodes.push(n);
    n.groupKey = key;
  }
  // a file's label: its path from its group's folder (a missing one's
  // whole path or name)
  const label = (n) => {
    if (n.kind === "missing" || n.group === ".") return n.id;
    return n.id.startsWith(n.group + "/") ? n.id.slice(n.group.length + 1) : n.id;
  };
  const groupTitle = (g) => {
    if (g.name === "(missing)") return "cited but missing";
    let t = g.name;
    if (g.plugin && (t === g.plugin || t.startsWith(g.plugin + "/"))) t = t.slice(g.plugin.length + 1) || ".";
    return t === "." ? "(top folder)" : t;
  };
  const byName = new Intl.Collator("en", { numeric: true }).compare;
  // the plugins in layers, each a list of its folders in layers, each
  // folder's files in their order with their layer
  const pluginLayers = [];
  const placed = new Set();
  for (const ly of L.plugins || []) {
    const row = ly.filter((id) => plugins.has(id) && !placed.has(id)).map((id) => { placed.add(id); return plugins.get(id); });
    if (row.length) pluginLayers.push(row);
  }
  const rest = [...plugins.values()].filter((p) => !placed.has(p.id)).sort((a, b) => byName(a.id, b.id));
  if (rest.length) pluginLayers.push(rest); // none, unless the layout is not the graph's
  const pluginList = pluginLayers.flat();
  for (const p of pluginList) {
    const seen = new Set();
    p.layers = [];
    for (const ly of (L.groups || {})[p.id] || []) {
      const row = ly.map((k) => p.groups.get(k.plugin + "\u0000" + k.group)).filter((g) => g && !seen.has(g.key));
      row.forEach((g) => seen.add(g.key));
      if (row.length) p.layers.push(row);
    }
    const left = [...p.groups.values()].filter((g) => !seen.has(g.key));
    if (left.length) p.layers.push(left);
    p.list = p.layers.flat();
    for (const g of p.list) {
      const c = (L.cells || {})[g.key];
      const order = new Map();
      if (c) c.nodes.forEach((ni, j) => order.set(nodes[ni], j));
      g.cols = (c && c.cols) || 1;
      g.nodes.sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || byName(a.id, b.id));
      for (const n of g.nodes) n.layer = c && order.has(n) ? c.at[order.get(n)][2] : 0;
      g.findings = g.nodes.reduce((s, n) => s + n.findings, 0);
    }
  }

  // --- what is shown ----------------------------------------------------------
  const state = {
    hiddenKinds: new Set(), hiddenEdges: new Set(), collapsed: new Set(), collapsedPlugins: new Set(),
    selected: null, query: "", rule: "", orphans: false, hubs: false,
  };
  if (nodes.length > SUMMARY_ABOVE && location.hash !== "#all") {
    for (const p of pluginList) for (const g of p.list) state.collapsed.add(g.key);
    const groups = pluginList.reduce((s, p) => s + p.list.length, 0);
    if (groups > 300 && pluginList.length > 1) for (const p of pluginList) state.collapsedPlugins.add(p.id);
  }

  // --- packing: a layer a row, wrapped; what is above is relied on --------------
  let pos = new Map(); // node id, group key or plugin id → its box
  let rep = new Map(); // node id → the id of the box that shows it
  let boxes = []; // what to draw: {type, x, y, w, h, …}

  // cells places a folder's files shown: each layer's files in rows of
  // the folder's columns, a little gap between layers (as the layout's
  // grid, with the files of a hidden kind left out).
  function cells(g, shown) {
    const at = new Map();
    let row = 0, layer = null, j = 0, cols = 1, gaps = -1;
    const width = Math.min(g.cols, Math.max(1, shown.length));
    for (const n of shown) {
      if (n.layer !== layer) {
        if (layer !== null) row += Math.ceil(j / width);
        layer = n.layer; j = 0; gaps++;
      }
      at.set(n, { col: j % width, row: row + Math.floor(j / width), gap: gaps });
      cols = Math.max(cols, Math.min(width, j + 1));
      j++;
    }
    row += Math.ceil(j / width);
    return { at, cols, rows: Math.max(1, row), gaps: Math.max(0, gaps) };
  }

  function groupSize(g, shown) {
    if (state.collapsed.has(g.key)) return { w: BOX_W, h: BOX_H };
    const c = (g.cells = cells(g, shown));
    return { w: COL * c.cols - (COL - NODE_W) + 2 * PAD, h: HEAD + c.rows * ROW + c.gaps * LAYER_IN + PAD };
  }

  // shelf packs items ({w, h}) in reading order, layer after layer:
  // each row from the left, wrapped at width; a layer starts a new row
  // unless the whole layer fits in what is left of the row (then it goes
  // on after a wider gap),
  // so that what is relied on is above, or on its row to the left of,
  // what relies on it. It sets each item's x, y (from 0, 0) and returns
  // the size of the whole.
  function shelf(layers, width, gap, layerGap) {
    let x = 0, y = 0, rowH = 0, maxX = 0;
    const newRow = (g) => { x = 0; y += rowH + g; rowH = 0; };
    for (const ly of layers) {
      if (!ly.length) continue;
      const need = ly.reduce((s, it) => s + it.w + gap, 0);
      if (x > 0 && x + layerGap - gap + need - gap > width) newRow(layerGap);
      else if (x > 0) x += layerGap - gap;
      for (const it of ly) {
        if (x > 0 && x + it.w > width) newRow(gap);
        it.x = x; it.y = y;
        x += it.w + gap; rowH = Math.max(rowH, it.h); maxX = Math.max(maxX, x - gap);
      }
    }
    return { w: maxX, h: y + rowH };
  }
  // pack packs layers at the width, of a few, that gives the whole the
  // shape want (width / height) best.
  function pack(layers, want, gap, layerGap) {
    const items = layers.flat();
    if (!items.length) return { w: 0, h: 0 };
    let widest = 0, area = 0;
    for (const it of items) { widest = Math.max(widest, it.w); area += (it.w + gap) * (it.h + gap); }
    let best = null;
    for (let w = Math.max(widest, Math.sqrt(area * want) / 2); w < Math.max(widest * 2, Math.sqrt(area * want) * 4); w *= 1.12) {
      const s = shelf(layers, w, gap, layerGap);
      const score = Math.abs(Math.log(s.w / Math.max(1, s.h) / want)) + 0.5 * Math.log(s.w * s.h / area);
      if (!best || score < best.score - 1e-9) best = { w, score };
    }
    return shelf(layers, best.w, gap, layerGap);
  }

  let svgRect = null; // the map's size on screen, read once a layout
  function layout() {
    const r = (svgRect = svg.getBoundingClientRect());
    const want = r.width > 50 && r.height > 50 ? r.width / r.height : 1.5;
    pos = new Map(); rep = new Map(); boxes = [];
    // each plugin: its folders packed, or one box
    const items = [];
    for (const p of pluginList) {
      const layers = [];
      let files = 0, found = 0;
      for (const ly of p.layers) {
        const row = [];
        for (const g of ly) {
          const shown = g.nodes.filter((n) => !state.hiddenKinds.has(n.kind));
          if (!shown.length) continue;
          files += shown.length; found += g.findings;
          row.push({ g, shown, ...groupSize(g, shown) });
        }
        layers.push(row);
      }
      if (!files) continue;
      const it = { p, layers, files, found, folded: state.collapsedPlugins.has(p.id) };
      if (it.folded) { it.w = BOX_W + 30; it.h = BOX_H; } else {
        const size = pack(layers, want, GAP, LAYER_GAP);
        it.w = Math.max(size.w, 220) + 2 * PAD; it.h = size.h + PLUGIN_HEAD + PAD;
      }
      items.push(it);
    }
    const itemOf = new Map(items.map((it) => [it.p.id, it]));
    const players = pluginLayers.map((ly) => ly.map((p) => itemOf.get(p.id)).filter(Boolean));
    pack(players, want, PLUGIN_GAP, PLUGIN_LAYER_GAP);
    for (const it of items) {
      const p = it.p;
      if (it.folded) {
        const b = { type: "plugin-node", id: p.id, x: it.x, y: it.y, w: it.w, h: it.h, files: it.files, found: it.found };
        boxes.push(b); pos.set("p\u0000" + p.id, b);
        for (const s of it.layers.flat()) for (const n of s.shown) rep.set(n.id, "p\u0000" + p.id);
        continue;
      }
      boxes.unshift({ type: "plugin", id: p.id, x: it.x, y: it.y, w: it.w, h: it.h, found: it.found });
      for (const s of it.layers.flat()) placeGroup(s, it.x + PAD + s.x, it.y + PLUGIN_HEAD + s.y);
    }
  }

  function placeGroup(s, x, y) {
    const g = s.g;
    if (state.collapsed.has(g.key)) {
      const b = { type: "group-node", g, x, y, w: s.w, h: s.h, files: s.shown.length };
      boxes.push(b); pos.set(g.key, b);
      for (const n of s.shown) rep.set(n.id, g.key);
      return;
    }
    boxes.push({ type: "group", g, x, y, w: s.w, h: s.h });
    for (const n of s.shown) {
      const c = g.cells.at.get(n);
      const b = { type: "node", n, x: x + PAD + c.col * COL, y: y + HEAD + c.row * ROW + c.gap * LAYER_IN, w: NODE_W, h: NODE_H };
      boxes.push(b); pos.set(n.id, b); rep.set(n.id, n.id);
    }
  }

  // --- drawing ------------------------------------------------------------------
  const svg = document.getElementById("map");
  const el = (tag, attrs, parent) => {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  };
  const text = (parent, x, y, s, cls) => {
    const t = el("text", { x, y, class: cls }, parent);
    t.textContent = s;
    return t;
  };
  // fit cuts s to width (px a character), keeping its end: a path's
  // file name
  // cut cuts s to width keeping its start: a folder's name
  const cut = (s, width, px) => (s.length * px <= width ? s : s.slice(0, Math.max(1, Math.floor(width / px) - 1)) + "…");
  const fit = (s, width, px) => (s.length * px <= width ? s : "…" + s.slice(s.length - Math.max(1, Math.floor(width / px) - 1)));

  let layers = null, drawn = { nodes: 0, edges: 0, broken: 0 };
  const nodeEls = new Map(), edgeEls = [];
  // titleEls: the titles of plugins and folders, which stay readable when
  // the map is zoomed out (levelOfDetail): {el, x, y, w, size, full, prefix}
  const titleEls = [];
  function title(parent, x, y, w, size, full, prefix, cls) {
    const t = text(parent, x, y, prefix + fit(full, w - 12, size * 0.58), cls);
    titleEls.push({ el: t, x, y, w, size, full, prefix, short: full.slice(full.lastIndexOf("/") + 1) });
    return t;
  }

  function draw() {
    layout();
    svg.textContent = "";
    nodeEls.clear(); edgeEls.length = 0;
    const defs = el("defs", {}, svg);
    for (const k of [...Object.keys(EDGE_STYLE), "broken"]) {
      const m = el("marker", { id: "arrow-" + k, viewBox: "0 0 8 8", refX: 7, refY: 4, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M0,0 L8,4 L0,8 z", fill: k === "broken" ? "#d62728" : EDGE_STYLE[k].color }, m);
    }
    const view = el("g", { id: "view" }, svg);
    // the red edges last: drawn over the others and the files; the titles
    // over all, for the map zoomed out
    layers = { back: el("g", {}, view), edges: el("g", {}, view), front: el("g", {}, view), broken: el("g", {}, view), titles: el("g", {}, view) };
    titleEls.length = 0; lod = null;
    drawn = { nodes: 0, edges: 0, broken: 0 };
    for (const b of boxes) drawBox(b);
    drawEdges();
    applyView();
    if (filtering() || state.selected) highlight();
    const ds = document.body.dataset;
    ds.nodes = drawn.nodes; ds.edges = drawn.edges; ds.broken = drawn.broken;
  }

  function drawBox(b) {
    if (b.type === "plugin") {
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 8, class: "plugin-box" }, layers.back);
      const t = title(layers.titles, b.x + 8, b.y + 20, Math.max(b.w, 400), 15, b.id === "" ? G.root + " (repo root)" : b.id, "", "plugin-title");
      titleEls[titleEls.length - 1].plugin = true;
      titleEls[titleEls.length - 1].short = "";
      if (b.found) t.classList.add("has-findings");
    } else if (b.type === "group") {
      const g = el("g", {}, layers.back);
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6, class: "group-box" }, g);
      const t = title(layers.titles, b.x + PAD, b.y + 15, b.w - PAD, 11.5, groupTitle(b.g), "▾ ", "group-title");
      if (b.g.findings) t.classList.add("has-findings");
      t.addEventListener("click", (ev) => { ev.stopPropagation(); state.collapsed.add(b.g.key); draw(); });
      el("title", {}, t).textContent = "collapse " + b.g.name;
    } else if (b.type === "group-node" || b.type === "plugin-node") {
      const g = el("g", { class: "group-node", "data-group": b.type === "group-node" ? b.g.key : "p\u0000" + b.id }, layers.front);
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }, g);
      const name = b.type === "group-node" ? groupTitle(b.g) : (b.id || G.root + " (repo root)");
      title(layers.titles, b.x + 8, b.y + 16, b.w - 10, 12, name, "▸ ", "name folded" + (b.type === "plugin-node" ? " plugin" : ""));
      const found = b.type === "group-node" ? b.g.findings : b.found;
      text(g, b.x + 8, b.y + 33, b.files + (b.files === 1 ? " file" : " files") + (found ? " · " + found + " findings" : ""), "count");
      if (found) badge(g, b.x + b.w - 10, b.y + 10, found);
      el("title", {}, g).textContent = name + ": click to show its files";
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (b.type === "group-node") state.collapsed.delete(b.g.key);
        else {
          state.collapsedPlugins.delete(b.id);
          const p = plugins.get(b.id);
          if (p.list.reduce((s, x) => s + x.nodes.length, 0) > SUMMARY_ABOVE) for (const x of p.list) state.collapsed.add(x.key);
        }
        draw();
      });
    } else {
      const n = b.n;
      const cls = ["node", "k-" + n.kind];
      if (n.findings) cls.push("has-findings");
      if (n.orphan) cls.push("orphan");
      if (n.hub) cls.push("hub");
      if (n.kind === "missing") cls.push("missing");
      if (n.changed) cls.push("changed");
      const g = el("g", { class: cls.join(" "), "data-id": n.id, "data-kind": n.kind, "data-findings": n.findings }, layers.front);
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 3, class: "bg" }, g);
      el("rect", { x: b.x, y: b.y, width: 5, height: b.h, rx: 2, fill: kindColor(n.kind), class: "stripe" }, g);
      let room = b.w - 12;
      if (n.findings) room -= 18;
      if (n.hub) room -= 26;
      text(g, b.x + 9, b.y + 13, fit(label(n), room, 6.2), "label");
      if (n.hub) text(g, b.x + b.w - (n.findings ? 44 : 26), b.y + 13, "◂" + n.in, "indeg");
      if (n.findings) badge(g, b.x + b.w - 10, b.y + b.h / 2, n.findings);
      el("title", {}, g).textContent = n.id + " (" + n.kind + ")" + (n.name ? " — " + n.name : "") +
        "\ncited by " + n.in + ", cites " + n.out + (n.findings ? ", " + n.findings + " findings" : "");
      g.addEventListener("click", (ev) => { ev.stopPropagation(); select(n.id); });
      nodeEls.set(n.id, g);
      drawn.nodes++;
    }
  }

  function badge(parent, cx, cy, count) {
    const g = el("g", { class: "badge" }, parent);
    el("circle", { cx, cy, r: count > 99 ? 9 : 7.5 }, g);
    text(g, cx, cy + 3.4, count > 999 ? "1k+" : String(count));
  }

  // Edges between the boxes shown: one line for all the edges of a kind
  // between two boxes, red when one of them is broken.
  function drawEdges() {
    const agg = new Map();
    for (const e of edges) {
      if (state.hiddenEdges.has(e.kind)) continue;
      const a = rep.get(e.from), b = rep.get(e.to);
      if (!a || !b || a === b) continue;
      const key = a + "\u0001" + b + "\u0001" + e.kind;
      let x = agg.get(key);
      if (!x) agg.set(key, (x = { from: a, to: b, kind: e.kind, list: [], broken: false }));
      x.list.push(e);
      x.broken = x.broken || e.broken;
    }
    for (const x of agg.values()) {
      const s = EDGE_STYLE[x.kind] || EDGE_STYLE.link;
      const p1 = pos.get(x.from), p2 = pos.get(x.to);
      const d = curve(p1, p2, 3 * Math.max(0, data.edgeKinds.indexOf(x.kind)));
      const attrs = { d, class: "edge e-" + x.kind + (x.broken ? " broken" : ""), stroke: s.color, "stroke-width": s.width,
        "data-from": x.from, "data-to": x.to, "data-kind": x.kind, "data-count": x.list.length,
        "marker-end": "url(#arrow-" + (x.broken ? "broken" : x.kind) + ")", "vector-effect": "non-scaling-stroke" };
      if (s.dash) attrs["stroke-dasharray"] = s.dash;
      const path = el("path", attrs, x.broken ? layers.broken : layers.edges);
      const first = x.list[0];
      el("title", {}, path).textContent = s.text + (x.list.length > 1 ? " ×" + x.list.length : "") +
        (x.broken ? " (broken)" : "") + ": " + first.path + ":" + first.line + (first.label ? " " + first.label : "");
      x.el = path;
      edgeEls.push(x);
      drawn.edges++;
      if (x.broken) drawn.broken++;
    }
  }

  // curve joins two boxes: one above the other, the bottom of the upper
  // to the top of the lower; side by side (a layer's row), an arc under
  // them from one to the other (their titles are on top).
  function curve(a, b, spread) {
    const ax = a.x + a.w / 2, bx = b.x + b.w / 2;
    if (a.y + a.h <= b.y || b.y + b.h <= a.y) {
      const down = a.y < b.y;
      const y1 = down ? a.y + a.h : a.y, y2 = down ? b.y - 2 : b.y + b.h + 2;
      const k = Math.max(20, Math.abs(y2 - y1) / 2.2) * (down ? 1 : -1);
      // each end on the side of its box facing the other, the kinds apart
      const lean = (p, q) => Math.max(-0.35, Math.min(0.35, (q - p) / 600));
      const x1 = ax + a.w * lean(ax, bx) + spread - 9, x2 = bx + b.w * lean(bx, ax) + spread - 9;
      // one above the other with boxes between: bow out to the right
      const bow = Math.abs(x2 - x1) < 60 && Math.abs(y2 - y1) > 60 ? Math.min(140, 20 + Math.abs(y2 - y1) / 5) + spread * 2 : 0;
      return `M${x1},${y1} C${x1 + bow},${y1 + k} ${x2 + bow},${y2 - k} ${x2},${y2}`;
    }
    const drop = Math.min(160, 24 + Math.abs(bx - ax) / 5) + spread, ay2 = a.y + a.h, by2 = b.y + b.h;
    return `M${ax},${ay2} C${ax},${ay2 + drop} ${bx},${by2 + drop} ${bx},${by2 + 2}`;
  }

  // --- highlighting: search, rule, orphans, hubs, the selection -----------------
  function matches(n) {
    if (state.query) {
      const q = state.query;
      if (!n.id.toLowerCase().includes(q) && !(n.name || "").toLowerCase().includes(q)) return false;
    }
    if (state.rule === "*" && !n.findings) return false;
    if (state.rule && state.rule !== "*" && !findingsOf.get(n.id).some((f) => f.rule === state.rule)) return false;
    if (state.orphans && !n.orphan) return false;
    if (state.hubs && !n.hub) return false;
    return true;
  }
  const filtering = () => state.query || state.rule || state.orphans || state.hubs;

  function highlight() {
    const on = filtering();
    for (const [id, g] of nodeEls) {
      const m = on && matches(byId.get(id));
      g.classList.toggle("dim", !!on && !m);
      g.classList.toggle("match", !!state.query && m);
      g.classList.toggle("selected", id === state.selected);
    }
    svg.classList.toggle("focus", !!state.selected);
    for (const x of edgeEls) {
      x.el.classList.toggle("hot", !!state.selected && (x.from === state.selected || x.to === state.selected));
      if (on && !state.selected) {
        const a = byId.get(x.from), b = byId.get(x.to);
        x.el.classList.toggle("dim", !((a && matches(a)) || (b && matches(b))));
      } else x.el.classList.remove("dim");
    }
  }

  // --- pan and zoom ---------------------------------------------------------------
  let vb = null;
  function bounds() {
    let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
    for (const b of boxes) { x1 = Math.min(x1, b.x); y1 = Math.min(y1, b.y); x2 = Math.max(x2, b.x + b.w); y2 = Math.max(y2, b.y + b.h); }
    if (x1 === Infinity) return { x: 0, y: 0, w: 100, h: 100 };
    return { x: x1 - 20, y: y1 - 90, w: x2 - x1 + 60, h: y2 - y1 + 110 }; // room for the arcs over a row, the plugin's title
  }
  function fitView() {
    const r = svgRect || svg.getBoundingClientRect(), b = bounds();
    // never magnified past 1.3: a small repo's map stays a map
    const scale = Math.max(b.w / Math.max(1, r.width), b.h / Math.max(1, r.height), 1 / 1.3);
    vb = { x: b.x, y: b.y, w: Math.max(1, r.width) * scale, h: Math.max(1, r.height) * scale };
    applyView();
  }
  function applyView() {
    if (!vb) return fitView();
    svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    levelOfDetail();
  }
  // Zoomed out (FAR: less than this many pixels a unit), the files are
  // coloured bars without names, and the plugins' and folders' titles keep
  // their size on the screen, cut to their box's width.
  const FAR = 0.6;
  let lod = null;
  function levelOfDetail() {
    const r = svgRect || svg.getBoundingClientRect();
    const k = Math.max(1e-3, r.width / Math.max(1, vb.w)); // screen pixels a unit
    const far = k < FAR;
    svg.classList.toggle("far", far);
    document.body.dataset.zoom = k.toFixed(3);
    const step = far ? Math.round(Math.log(k) / Math.log(1.15)) : 0;
    if (step === lod) return;
    lod = step;
    for (const t of titleEls) {
      const size = far ? Math.min((t.plugin ? 16 : 10.5) / k, t.size * 8) : t.size;
      const room = far ? t.w * k : t.w; // in screen pixels when far
      const px = far ? (t.plugin ? 16 : 10.5) * 0.6 : size * 0.58;
      const name = far && t.short ? t.short : t.full;
      const s = room < px * 3 ? "" : far ? cut(name, room - 4, px) : t.prefix + fit(name, room - 12, px);
      t.el.textContent = s;
      t.el.style.fontSize = size + "px";
      t.el.setAttribute("y", far ? t.y - t.size + size * 0.95 - (t.plugin ? size * 1.1 : 0) : t.y);
    }
  }
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const mx = vb.x + (ev.clientX - r.left) / r.width * vb.w, my = vb.y + (ev.clientY - r.top) / r.height * vb.h;
    const f = Math.exp(Math.sign(ev.deltaY) * 0.15);
    vb = { x: mx - (mx - vb.x) * f, y: my - (my - vb.y) * f, w: vb.w * f, h: vb.h * f };
    applyView();
  }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => {
    drag = { x: ev.clientX, y: ev.clientY, vb: { ...vb }, moved: false };
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; svg.classList.add("dragging"); }
    vb = { ...drag.vb, x: drag.vb.x - dx / r.width * vb.w, y: drag.vb.y - dy / r.height * vb.h };
    applyView();
  });
  window.addEventListener("pointerup", () => { svg.classList.remove("dragging"); setTimeout(() => { drag = null; }, 0); });
  svg.addEventListener("click", () => { if (drag && drag.moved) return; select(null); });
  // centerOn brings a box to the middle, zoomed in enough to read it.
  function centerOn(id) {
    const b = pos.get(rep.get(id));
    if (!b || !vb) return;
    const r = svgRect || svg.getBoundingClientRect();
    if (r.width / vb.w < 1) vb = { ...vb, w: r.width, h: r.height };
    vb = { ...vb, x: b.x + b.w / 2 - vb.w / 2, y: b.y + b.h / 2 - vb.h / 2 };
    applyView();
  }

  // --- the side panel ---------------------------------------------------------------
  const panel = document.getElementById("panel");
  const add = (parent, tag, s, cls) => {
    const e = document.createElement(tag);
    if (s !== undefined) e.textContent = s;
    if (cls) e.className = cls;
    parent.appendChild(e);
    return e;
  };
  const goLink = (parent, id, s) => {
    const a = add(parent, "a", s || id);
    a.addEventListener("click", () => reveal(id));
    return a;
  };
  // Where a file's line is: the repo's web view or the local file (Go's
  // graph.Links, checked there); the path's parts percent-encoded.
  const links = data.links && /^(https?|file):\/\//.test(data.links.base) ? data.links : null;
  const fileURL = (path, line) => links.base + path.split("/").map(encodeURIComponent).join("/") +
    (line > 0 && links.line ? links.line + line : "");
  // locLink writes `path:line` (and :column), a link to the file there.
  const locLink = (parent, path, line, column, rest) => {
    const d = add(parent, "div", undefined, "loc");
    const s = path + ":" + line + (column ? ":" + column : "");
    if (links) {
      const a = add(d, "a", s, "file-link");
      a.href = fileURL(path, line);
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.title = links.web ? "open in the repo's web view" : "open the local file";
    } else add(d, "span", s);
    if (rest) add(d, "span", rest);
    return d;
  };

  function select(id) {
    state.selected = id;
    highlight();
    showPanel();
  }
  // reveal shows a node: its folder (and plugin) expanded, centred, selected.
  function reveal(id) {
    const n = byId.get(id);
    if (!n) return;
    state.hiddenKinds.delete(n.kind);
    const changed = state.collapsed.delete(n.groupKey) | state.collapsedPlugins.delete(n.plugin);
    if (changed || !nodeEls.has(id)) { syncChips(); draw(); }
    centerOn(id);
    select(id);
  }

  function showPanel() {
    panel.textContent = "";
    const n = state.selected && byId.get(state.selected);
    if (!n) return showSummary();
    const h = add(panel, "h2", n.id);
    if (links && n.kind !== "missing") {
      h.textContent = "";
      const a = add(h, "a", n.id, "file-link");
      a.href = fileURL(n.id, 0);
      a.target = "_blank";
      a.rel = "noopener noreferrer";
    }
    const meta = add(panel, "div", "", "meta");
    meta.textContent = n.kind + (n.name ? " · name " + n.name : "") + (n.plugin ? " · plugin " + n.plugin : "") +
      " · cited by " + n.in + " · cites " + n.out + (n.orphan ? " · orphan: nothing cites it" : "") + (n.hub ? " · hub" : "");
    const fs = findingsOf.get(n.id);
    if (fs.length) {
      add(panel, "h3", fs.length + (fs.length === 1 ? " finding" : " findings"));
      const ul = add(panel, "ul");
      for (const f of fs) {
        const li = add(ul, "li");
        locLink(li, f.path, f.line, f.column);
        add(li, "span", f.severity + " ", "sev-" + f.severity);
        add(li, "span", f.message + " ");
        add(li, "span", "[" + f.id + "/" + f.rule + "]", "meta");
      }
    }
    edgeList("cites", outOf.get(n.id), (e) => e.to, n);
    edgeList("cited by", inTo.get(n.id), (e) => e.from, n);
  }

  function edgeList(title, list, other, n) {
    if (!list.length) return;
    add(panel, "h3", title + " (" + list.length + ")");
    const ul = add(panel, "ul");
    const sorted = [...list].sort((a, b) => b.broken - a.broken || a.kind.localeCompare(b.kind) || byName(other(a), other(b)) || a.line - b.line);
    for (const e of sorted.slice(0, 400)) {
      const li = add(ul, "li", undefined, e.broken ? "broken" : "");
      add(li, "span", e.kind === "copy" && other(e) === e.to ? "copy to" : e.kind === "copy" ? "copy of" : (EDGE_STYLE[e.kind] || {}).text || e.kind, "ek");
      goLink(li, other(e));
      locLink(li, e.path, e.line, 0, e.label ? "  " + e.label : "");
      for (const fi of e.findings || []) add(li, "div", "✗ " + findings[fi].message, "broken");
    }
    if (sorted.length > 400) add(panel, "div", (sorted.length - 400) + " more", "hint");
  }

  function showSummary() {
    add(panel, "h2", G.root);
    if (G.changed) {
      add(panel, "div", "What a change to " + G.changed.length + " files touches and what depends on it:", "meta");
      const ul = add(panel, "ul");
      for (const c of G.changed) goLink(add(ul, "li"), c);
    }
    add(panel, "div", "What a file relies on is drawn above it: a canonical block above its copies, a registry above its users, a cited file above the files citing it. Click a file for its findings and references; click a folder's title to fold it, a folded box to open it. Drag to pan, wheel to zoom.", "hint");
    if (state.rule) findingList(state.rule === "*" ? findings : findings.filter((f) => f.rule === state.rule),
      state.rule === "*" ? "findings" : "findings of " + state.rule);
    const broken = edges.filter((e) => e.broken);
    if (broken.length) {
      add(panel, "h3", broken.length + " broken references and drifted copies");
      const ul = add(panel, "ul");
      for (const e of broken.slice(0, 200)) {
        const li = add(ul, "li", undefined, "broken");
        add(li, "span", (EDGE_STYLE[e.kind] || {}).text || e.kind, "ek");
        goLink(li, e.from);
        add(li, "span", e.kind === "copy" ? " ⇒ " : " → ");
        goLink(li, e.to);
        locLink(li, e.path, e.line, 0, e.label ? "  " + e.label : "");
      }
    }
    if (!state.rule) findingList(findings.filter((f) => f.edge < 0 || !edges[f.edge] || !edges[f.edge].broken), "other findings");
    const hubs = nodes.filter((n) => n.hub).sort((a, b) => b.in - a.in).slice(0, 15);
    if (hubs.length) {
      add(panel, "h3", "hubs: cited by the most files");
      const ul = add(panel, "ul");
      for (const h of hubs) { const li = add(ul, "li"); goLink(li, h.id); add(li, "span", "  ◂" + h.in, "meta"); }
    }
    const orphans = nodes.filter((n) => n.orphan).length;
    add(panel, "h3", "orphans");
    add(panel, "div", orphans + " files no host loads and nothing cites (tick “orphans” to see them).", "hint");
    add(panel, "h3", "legend");
    const lg = add(panel, "ul");
    for (const k of data.edgeKinds) {
      const li = add(lg, "li");
      li.appendChild(edgeSample(k));
      add(li, "span", " " + EDGE_STYLE[k].text);
    }
    const li = add(lg, "li");
    li.appendChild(edgeSample("broken"));
    add(li, "span", " broken reference, drifted copy, value the registry lacks");
    add(add(lg, "li"), "span", "red badge: the file's findings; ◂N: cited by N files (a hub); italic: an orphan; dashed red: cited but missing", "hint");
  }

  // findingList lists findings, the errors first, each with its file.
  function findingList(list, what) {
    if (!list.length) return;
    const sev = { error: 0, warning: 1, info: 2 };
    const sorted = [...list].sort((a, b) => (sev[a.severity] ?? 3) - (sev[b.severity] ?? 3) || byName(a.path, b.path) || a.line - b.line);
    add(panel, "h3", list.length + " " + what);
    const ul = add(panel, "ul", undefined, "findings");
    for (const f of sorted.slice(0, 300)) {
      const li = add(ul, "li");
      add(li, "span", f.severity + " ", "sev-" + f.severity);
      goLink(li, f.path);
      locLink(li, f.path, f.line, f.column);
      add(li, "span", f.message + " ");
      add(li, "span", "[" + f.id + "/" + f.rule + "]", "meta");
    }
    if (sorted.length > 300) add(panel, "div", (sorted.length - 300) + " more", "hint");
  }

  function edgeSample(k) {
    const s = document.createElementNS(SVG, "svg");
    s.setAttribute("width", 28); s.setAttribute("height", 10);
    const st = k === "broken" ? { color: "#d62728", width: 2.4, dash: "" } : EDGE_STYLE[k];
    const l = el("line", { x1: 1, y1: 5, x2: 27, y2: 5, stroke: st.color, "stroke-width": st.width }, s);
    if (st.dash) l.setAttribute("stroke-dasharray", st.dash);
    return s;
  }

  // --- the controls ------------------------------------------------------------------
  const chipsOf = { nodes: [], edges: [] };
  function chips() {
    const nk = document.getElementById("node-kinds");
    const count = new Map();
    for (const n of nodes) count.set(n.kind, (count.get(n.kind) || 0) + 1);
    for (const k of data.nodeKinds) {
      const c = add(nk, "span", undefined, "chip");
      const sw = add(c, "span", undefined, "swatch");
      sw.style.background = kindColor(k);
      add(c, "span", k);
      add(c, "span", String(count.get(k) || 0), "n");
      c.addEventListener("click", () => { toggle(state.hiddenKinds, k); syncChips(); draw(); });
      chipsOf.nodes.push([k, c]);
    }
    const ek = document.getElementById("edge-kinds");
    const ecount = new Map();
    for (const e of edges) ecount.set(e.kind, (ecount.get(e.kind) || 0) + 1);
    for (const k of data.edgeKinds) {
      if (!ecount.get(k)) continue;
      const c = add(ek, "span", undefined, "chip");
      c.appendChild(edgeSample(k));
      add(c, "span", EDGE_STYLE[k].text);
      add(c, "span", String(ecount.get(k)), "n");
      c.addEventListener("click", () => { toggle(state.hiddenEdges, k); syncChips(); draw(); });
      chipsOf.edges.push([k, c]);
    }
  }
  function syncChips() {
    for (const [k, c] of chipsOf.nodes) c.classList.toggle("off", state.hiddenKinds.has(k));
    for (const [k, c] of chipsOf.edges) c.classList.toggle("off", state.hiddenEdges.has(k));
  }
  const toggle = (set, k) => (set.has(k) ? set.delete(k) : set.add(k));

  function controls() {
    const stats = document.getElementById("stats");
    const broken = edges.filter((e) => e.broken).length;
    const parts = [[nodes.filter((n) => n.kind !== "missing" && n.kind !== "file" && n.kind !== "folder").length, " files · "],
      [edges.length, " references · "], [findings.length, " findings"]];
    for (const [v, s] of parts) { add(stats, "b", String(v)); add(stats, "span", s); }
    if (broken) add(stats, "span", " · " + broken + " broken", "bad");

    const rule = document.getElementById("rule");
    const byRule = new Map();
    for (const f of findings) byRule.set(f.rule, (byRule.get(f.rule) || 0) + 1);
    const opt = (v, s) => { const o = add(rule, "option", s); o.value = v; };
    opt("", "all files");
    opt("*", "files with findings (" + findings.length + ")");
    for (const [r, c] of [...byRule].sort()) opt(r, r + " (" + c + ")");
    rule.addEventListener("change", () => { state.rule = rule.value; highlight(); if (!state.selected) showPanel(); });

    const search = document.getElementById("search");
    search.addEventListener("input", () => { state.query = search.value.trim().toLowerCase(); highlight(); });
    search.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") { search.value = ""; state.query = ""; highlight(); }
      if (ev.key !== "Enter" || !state.query) return;
      const hit = nodes.find((n) => matches(n));
      if (hit) reveal(hit.id);
    });
    document.getElementById("orphans").addEventListener("change", (ev) => { state.orphans = ev.target.checked; highlight(); });
    document.getElementById("hubs").addEventListener("change", (ev) => { state.hubs = ev.target.checked; highlight(); });
    document.getElementById("expand").addEventListener("click", () => { state.collapsed.clear(); state.collapsedPlugins.clear(); draw(); fitView(); });
    document.getElementById("collapse").addEventListener("click", () => {
      for (const p of pluginList) for (const g of p.list) state.collapsed.add(g.key);
      draw(); fitView();
    });
    document.getElementById("fit").addEventListener("click", fitView);
    window.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && document.activeElement !== search) select(null); });
    window.addEventListener("resize", () => { svgRect = svg.getBoundingClientRect(); fitView(); });
  }

  chips();
  controls();
  draw();
  fitView();
  showPanel();
  if (location.hash.startsWith("#node=")) reveal(decodeURIComponent(location.hash.slice(6)));
  // The page is laid out: say so, and what it shows, for tests and tools.
  // layoutMs: from the start of the page's load; scriptMs: in this script
  document.body.dataset.layoutMs = Math.round(performance.now());
  document.body.dataset.scriptMs = Math.round(performance.now() - started);
  document.body.dataset.ready = "true";
})();
