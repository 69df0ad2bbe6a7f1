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
  const NODE_W = 176, NODE_H = 18, ROW = 22, COL = 186, PAD = 8, HEAD = 22;
  const GAP = 14, MAX_ROWS = 22, BOX_W = 176, BOX_H = 42, PLUGIN_HEAD = 30;
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

  // Plugins hold groups (folders), groups hold files, by kind then name.
  const kindRank = new Map(data.nodeKinds.map((k, i) => [k, i]));
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
  // copy2 before copy10: names are compared with their numbers as numbers.
  const byName = new Intl.Collator("en", { numeric: true }).compare;
  const pluginList = [...plugins.values()].sort((a, b) => byName(a.id, b.id));
  for (const p of pluginList) {
    p.list = [...p.groups.values()].sort((a, b) =>
      (a.name === "(missing)") - (b.name === "(missing)") || byName(a.name, b.name));
    for (const g of p.list) {
      g.nodes.sort((a, b) => (kindRank.get(a.kind) ?? 99) - (kindRank.get(b.kind) ?? 99) || byName(a.id, b.id));
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

  // --- layout: plugins stacked, their groups packed in rows, files in columns
  let pos = new Map(); // node id, group key or plugin id → its box
  let rep = new Map(); // node id → the id of the box that shows it
  let boxes = []; // what to draw: {type, x, y, w, h, …}

  function groupSize(g, shown) {
    if (state.collapsed.has(g.key)) return { w: BOX_W, h: BOX_H };
    // one column a kind, a column over MAX_ROWS files wrapped into more
    const cols = [];
    let kind = null;
    for (const n of shown) {
      if (n.kind !== kind || cols[cols.length - 1].length >= MAX_ROWS) cols.push([]);
      kind = n.kind;
      cols[cols.length - 1].push(n);
    }
    g.cols = cols;
    const rows = Math.max(1, ...cols.map((c) => c.length));
    return { w: COL * Math.max(1, cols.length) - (COL - NODE_W) + 2 * PAD, h: HEAD + rows * ROW + PAD };
  }

  // layout places everything: of a few widths to wrap the rows of groups
  // at, the one whose sheet has the shape of the window.
  let svgRect = null; // the map's size on screen, read once a layout
  function layout() {
    const r = (svgRect = svg.getBoundingClientRect());
    const want = r.width > 50 && r.height > 50 ? r.width / r.height : 1.5;
    let best = null, widest = BOX_W + 30;
    for (const p of pluginList) for (const g of p.list) {
      const shown = g.nodes.filter((n) => !state.hiddenKinds.has(n.kind));
      if (shown.length) widest = Math.max(widest, groupSize(g, shown).w);
    }
    for (let w = widest + 2 * PAD; w < 40000; w *= 1.25) {
      place(w);
      const b = bounds();
      const score = Math.abs(Math.log(b.w / b.h / want));
      if (!best || score < best.score - 0.02) best = { w, score };
      if (b.w / b.h > want * 1.5) break; // wider from here on
    }
    place(best.w);
  }

  function place(width) {
    pos = new Map(); rep = new Map(); boxes = [];
    const sized = [];
    for (const p of pluginList) {
      const gs = [];
      for (const g of p.list) {
        const shown = g.nodes.filter((n) => !state.hiddenKinds.has(n.kind));
        if (!shown.length) continue;
        const s = groupSize(g, shown);
        gs.push({ g, shown, ...s });
      }
      if (gs.length) sized.push({ p, gs });
    }
    let y = 0, px = 0, rowH = 0;
    for (const { p, gs } of sized) {
      if (state.collapsedPlugins.has(p.id)) {
        const files = gs.reduce((s, x) => s + x.shown.length, 0);
        const found = gs.reduce((s, x) => s + x.g.findings, 0);
        if (px + BOX_W > width) { px = 0; y += rowH + GAP; rowH = 0; }
        const b = { type: "plugin-node", id: p.id, x: px, y, w: BOX_W + 30, h: BOX_H, files, found };
        boxes.push(b); pos.set("p\u0000" + p.id, b);
        for (const x of gs) for (const n of x.shown) rep.set(n.id, "p\u0000" + p.id);
        px += b.w + GAP; rowH = Math.max(rowH, b.h);
        continue;
      }
      if (px > 0) { y += rowH + GAP; px = 0; rowH = 0; }
      const top = y;
      y += PLUGIN_HEAD;
      let x = PAD, lineH = 0, maxX = 0;
      for (const s of gs) {
        if (x > PAD && x + s.w > width) { x = PAD; y += lineH + GAP; lineH = 0; }
        placeGroup(s, x, y);
        x += s.w + GAP; lineH = Math.max(lineH, s.h); maxX = Math.max(maxX, x);
      }
      y += lineH + GAP;
      boxes.unshift({ type: "plugin", id: p.id, x: 0, y: top, w: maxX, h: y - top - GAP / 2 });
      y += GAP;
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
    g.cols.forEach((col, ci) => col.forEach((n, ri) => {
      const b = { type: "node", n, x: x + PAD + ci * COL, y: y + HEAD + ri * ROW, w: NODE_W, h: NODE_H };
      boxes.push(b); pos.set(n.id, b); rep.set(n.id, n.id);
    }));
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
  const fit = (s, width, px) => (s.length * px <= width ? s : "…" + s.slice(s.length - Math.max(1, Math.floor(width / px) - 1)));

  let layers = null, drawn = { nodes: 0, edges: 0, broken: 0 };
  const nodeEls = new Map(), edgeEls = [];

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
    layers = { back: el("g", {}, view), edges: el("g", {}, view), broken: el("g", {}, view), front: el("g", {}, view) };
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
      el("rect", { x: b.x - 4, y: b.y, width: b.w + 8, height: b.h, rx: 8, class: "plugin-box" }, layers.back);
      text(layers.back, b.x + 6, b.y + 20, b.id === "" ? G.root + " (repo root)" : b.id, "plugin-title");
    } else if (b.type === "group") {
      const g = el("g", {}, layers.back);
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6, class: "group-box" }, g);
      const t = text(g, b.x + PAD, b.y + 15, "▾ " + fit(groupTitle(b.g), b.w - 2 * PAD - 12, 6.6), "group-title");
      t.addEventListener("click", (ev) => { ev.stopPropagation(); state.collapsed.add(b.g.key); draw(); });
      el("title", {}, t).textContent = "collapse " + b.g.name;
    } else if (b.type === "group-node" || b.type === "plugin-node") {
      const g = el("g", { class: "group-node", "data-group": b.type === "group-node" ? b.g.key : "p\u0000" + b.id }, layers.front);
      el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: 6 }, g);
      const name = b.type === "group-node" ? groupTitle(b.g) : (b.id || G.root + " (repo root)");
      text(g, b.x + 8, b.y + 16, "▸ " + fit(name, b.w - 22, 6.8), "name");
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
      el("rect", { x: b.x, y: b.y, width: 5, height: b.h, rx: 2, fill: kindColor(n.kind) }, g);
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
      const d = curve(p1, p2, (p1.y > p2.y ? 16 : 0) + 5 * Math.max(0, data.edgeKinds.indexOf(x.kind)));
      const attrs = { d, class: "edge e-" + x.kind + (x.broken ? " broken" : ""), stroke: s.color, "stroke-width": s.width,
        "data-from": x.from, "data-to": x.to, "data-kind": x.kind, "data-count": x.list.length,
        "marker-end": "url(#arrow-" + (x.broken ? "broken" : x.kind) + ")" };
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

  // curve joins the facing sides of two boxes; boxes one above the other
  // are joined on their right, bowing out.
  function curve(a, b, spread) {
    const ay = a.y + a.h / 2, by = b.y + b.h / 2;
    if (Math.abs(ay - by) < ROW && Math.abs(a.x - b.x) > COL * 1.2) {
      // on one row: an arc over the boxes between, top side to top side
      const x1 = a.x + a.w / 2, x2 = b.x + b.w / 2, lift = Math.min(160, 24 + Math.abs(x2 - x1) / 5);
      return `M${x1},${a.y} C${x1},${a.y - lift} ${x2},${b.y - lift} ${x2},${b.y - 2}`;
    }
    if (Math.abs(a.x - b.x) < 40) {
      const x = Math.max(a.x + a.w, b.x + b.w), bow = 30 + spread + Math.min(120, Math.abs(ay - by) / 4);
      return `M${a.x + a.w},${ay} C${x + bow},${ay} ${x + bow},${by} ${b.x + b.w + 2},${by}`;
    }
    const right = b.x > a.x;
    const x1 = right ? a.x + a.w : a.x, x2 = right ? b.x - 2 : b.x + b.w + 2;
    const k = Math.max(30, Math.abs(x2 - x1) / 2.5);
    return `M${x1},${ay} C${x1 + (right ? k : -k)},${ay} ${x2 + (right ? -k : k)},${by} ${x2},${by}`;
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
    return { x: x1 - 20, y: y1 - 50, w: x2 - x1 + 60, h: y2 - y1 + 70 }; // room for the arcs over a row
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
  function centerOn(id) {
    const b = pos.get(rep.get(id));
    if (!b || !vb) return;
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
    add(panel, "h2", n.id);
    const meta = add(panel, "div", "", "meta");
    meta.textContent = n.kind + (n.name ? " · name " + n.name : "") + (n.plugin ? " · plugin " + n.plugin : "") +
      " · cited by " + n.in + " · cites " + n.out + (n.orphan ? " · orphan: nothing cites it" : "") + (n.hub ? " · hub" : "");
    const fs = findingsOf.get(n.id);
    if (fs.length) {
      add(panel, "h3", fs.length + (fs.length === 1 ? " finding" : " findings"));
      const ul = add(panel, "ul");
      for (const f of fs) {
        const li = add(ul, "li");
        add(li, "div", f.path + ":" + f.line + ":" + f.column, "loc");
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
      add(li, "div", e.path + ":" + e.line + (e.label ? "  " + e.label : ""), "loc");
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
    add(panel, "div", "Click a file for its findings and references; click a folder's title to fold it, a folded box to open it. Drag to pan, wheel to zoom.", "hint");
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
        add(li, "div", e.path + ":" + e.line, "loc");
      }
    }
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
    rule.addEventListener("change", () => { state.rule = rule.value; highlight(); });

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
