// @ts-check
// The inspector page: draws the machine, lists the timeline, and moves the highlighted state as
// you step through it. Journal content is untrusted: it is only ever set with `textContent`.

/** @typedef {{ id: string, final: boolean, invokes: string[], spawns: string[] }} GraphState */
/** @typedef {{ from: string, to: string, event: string, guard?: string }} GraphEdge */
/** @typedef {{ id: string, initial: string, states: GraphState[], edges: GraphEdge[] }} Graph */
/** @typedef {{ promptTokens: number, completionTokens: number, totalTokens: number }} Usage */
/** @typedef {{ callId: string, name: string, arguments: string, status: string, result?: string, durationMs?: number }} ToolCall */
/**
 * @typedef {{ id: string, index: number, kind: string, state: string | null, from?: string, event?: string,
 *   title: string, text?: string, tool?: ToolCall, turn: number, usage: Usage, cost: number }} Step
 */
/** @typedef {{ title: string, live: boolean, graph: Graph, steps: Step[] }} Snapshot */

const SVG = 'http://www.w3.org/2000/svg';
const NODE_W = 136;
const NODE_H = 52;
const COL_GAP = 44;
const ROW_GAP = 34;
const PAD = 24;

/** @type {{ graph: Graph | null, steps: Step[], selected: number, follow: boolean, live: boolean }} */
const view = { graph: null, steps: [], selected: -1, follow: true, live: false };

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`missing #${id}`);
  return element;
}

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function html(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @returns {SVGElement}
 */
function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** @param {Usage} usage @param {number} cost */
function usageText(usage, cost) {
  return `${usage.totalTokens} tokens (${usage.promptTokens} in / ${usage.completionTokens} out) · $${cost.toFixed(6)}`;
}

/** @param {string} event */
function eventLabel(event) {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return match ? `${match[1]}(${match[2]})` : event;
}

// ---- diagram ---------------------------------------------------------------------------------

/**
 * Columns by breadth-first depth from the initial state; final states in a last column.
 * @param {Graph} graph
 * @returns {Map<string, { x: number, y: number }>}
 */
function layout(graph) {
  /** @type {Map<string, number>} */
  const depth = new Map([[graph.initial, 0]]);
  const queue = [graph.initial];
  const finals = new Set(graph.states.filter((s) => s.final).map((s) => s.id));
  while (queue.length > 0) {
    const from = /** @type {string} */ (queue.shift());
    for (const edge of graph.edges) {
      if (edge.from !== from || depth.has(edge.to) || finals.has(edge.to)) continue;
      depth.set(edge.to, (depth.get(from) ?? 0) + 1);
      queue.push(edge.to);
    }
  }
  const lastColumn = Math.max(0, ...depth.values()) + 1;
  /** @type {Map<number, string[]>} */
  const columns = new Map();
  for (const state of graph.states) {
    const column = finals.has(state.id) ? lastColumn : (depth.get(state.id) ?? lastColumn);
    columns.set(column, [...(columns.get(column) ?? []), state.id]);
  }
  const tallest = Math.max(1, ...[...columns.values()].map((ids) => ids.length));
  /** @type {Map<string, { x: number, y: number }>} */
  const positions = new Map();
  for (const [column, ids] of columns) {
    const offset = ((tallest - ids.length) * (NODE_H + ROW_GAP)) / 2;
    ids.forEach((id, row) => {
      positions.set(id, { x: PAD + column * (NODE_W + COL_GAP), y: PAD + 40 + offset + row * (NODE_H + ROW_GAP) });
    });
  }
  return positions;
}

/**
 * A path from one box to another: straight between neighbours, arcing when it jumps or goes back.
 * @param {{ x: number, y: number }} a
 * @param {{ x: number, y: number }} b
 */
function edgePath(a, b) {
  const forward = b.x > a.x;
  const neighbours = forward && b.x - a.x <= NODE_W + COL_GAP;
  const start = { x: forward ? a.x + NODE_W : a.x + NODE_W / 2, y: a.y + (forward ? NODE_H / 2 : NODE_H) };
  const end = { x: forward ? b.x : b.x + NODE_W / 2, y: b.y + (forward ? NODE_H / 2 : NODE_H) };
  if (neighbours) {
    const midX = (start.x + end.x) / 2;
    return `M${start.x},${start.y} C${midX},${start.y} ${midX},${end.y} ${end.x},${end.y}`;
  }
  if (!forward) {
    const drop = Math.max(start.y, end.y) + 40;
    return `M${start.x},${start.y} C${start.x},${drop} ${end.x},${drop} ${end.x},${end.y}`;
  }
  const top = { x: a.x + NODE_W / 2, y: a.y };
  const goal = { x: b.x + NODE_W / 2 - 20, y: b.y };
  const lift = Math.min(top.y, goal.y) - 36;
  return `M${top.x},${top.y} C${top.x},${lift} ${goal.x},${lift} ${goal.x},${goal.y}`;
}

/** @param {Graph} graph */
function drawDiagram(graph) {
  const diagram = byId('diagram');
  diagram.replaceChildren();
  if (graph.states.length === 0) {
    diagram.setAttribute('viewBox', '0 0 480 60');
    const note = svg('text', { x: 16, y: 34, class: 'empty' });
    note.textContent = 'no machine yet: waiting for an XState app to connect';
    diagram.append(note);
    return;
  }
  const positions = layout(graph);
  const width = Math.max(...[...positions.values()].map((p) => p.x)) + NODE_W + PAD;
  const height = Math.max(...[...positions.values()].map((p) => p.y)) + NODE_H + PAD + 40;
  diagram.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const defs = svg('defs', {});
  /** @type {[string, string][]} */
  const arrows = [
    ['arrow', '#b5bccb'],
    ['arrow-taken', '#2f6fde'],
  ];
  for (const [id, color] of arrows) {
    const marker = svg('marker', {
      id,
      viewBox: '0 0 10 10',
      refX: 9,
      refY: 5,
      markerWidth: 7,
      markerHeight: 7,
      orient: 'auto-start-reverse',
    });
    marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }));
    defs.append(marker);
  }
  diagram.append(defs);
  const start = positions.get(graph.initial);
  if (start) {
    diagram.append(svg('circle', { cx: start.x - 14, cy: start.y + NODE_H / 2, r: 5, fill: '#687083' }));
  }
  /** @type {Map<string, string[]>} */
  const labels = new Map();
  for (const edge of graph.edges) {
    if (edge.from === edge.to) continue;
    const key = `${edge.from}→${edge.to}`;
    labels.set(key, [...(labels.get(key) ?? []), `${eventLabel(edge.event)}${edge.guard ? ` [${edge.guard}]` : ''}`]);
  }
  for (const [key, names] of labels) {
    const [from, to] = key.split('→');
    const a = positions.get(from ?? '');
    const b = positions.get(to ?? '');
    if (!a || !b) continue;
    const path = svg('path', { d: edgePath(a, b), class: 'edge', 'marker-end': 'url(#arrow)' });
    path.dataset.from = from ?? '';
    path.dataset.to = to ?? '';
    const title = svg('title', {});
    title.textContent = `${key}\n${names.join('\n')}`;
    path.append(title);
    diagram.append(path);
  }
  for (const state of graph.states) {
    const p = positions.get(state.id);
    if (!p) continue;
    const group = svg('g', { class: `state${state.final ? ' final' : ''}` });
    group.dataset.state = state.id;
    group.append(svg('rect', { x: p.x, y: p.y, width: NODE_W, height: NODE_H, rx: 10 }));
    const actors = [...state.invokes.map((s) => `invoke ${s}`), ...state.spawns.map((s) => `spawn ${s}`)];
    const name = svg('text', { x: p.x + NODE_W / 2, y: p.y + (actors.length ? 22 : 31), class: 'name' });
    name.textContent = state.id;
    group.append(name);
    actors.forEach((line, i) => {
      const text = svg('text', { x: p.x + NODE_W / 2, y: p.y + 38 + i * 12, class: 'actor' });
      text.textContent = line;
      group.append(text);
    });
    diagram.append(group);
  }
}

/** @param {Step | undefined} step */
function highlight(step) {
  const state = step?.state ?? null;
  for (const group of document.querySelectorAll('#diagram g.state')) {
    if (!(group instanceof SVGElement)) continue;
    group.classList.toggle('current', group.dataset.state === state);
  }
  for (const path of document.querySelectorAll('#diagram path.edge')) {
    if (!(path instanceof SVGElement)) continue;
    const taken = step?.kind === 'transition' && path.dataset.from === step.from && path.dataset.to === step.state;
    path.classList.toggle('taken', taken);
    path.setAttribute('marker-end', taken ? 'url(#arrow-taken)' : 'url(#arrow)');
  }
  const caption = byId('caption');
  if (!step) caption.textContent = 'no steps yet';
  else if (step.kind === 'transition') caption.textContent = `${step.from} → ${step.state} on ${step.event}`;
  else caption.textContent = state ? `in ${state}` : 'outside a run';
}

// ---- timeline --------------------------------------------------------------------------------

/** @param {Step} step */
function stepMeta(step) {
  if (step.kind === 'tool_call' && step.tool) {
    const duration = step.tool.durationMs === undefined ? '' : ` · ${step.tool.durationMs.toFixed(1)} ms`;
    return `${step.tool.callId}${duration}`;
  }
  if (step.kind === 'turn') return `$${step.cost.toFixed(6)} so far`;
  return step.state ?? '';
}

/**
 * @param {string} label
 * @param {string} text
 * @param {string} className
 * @returns {HTMLElement[]}
 */
function block(label, text, className) {
  return [html('div', 'label', label), html('pre', className, text)];
}

/** @param {Step} step */
function renderStep(step) {
  const item = html('li', `step ${step.kind}`);
  item.dataset.stepId = step.id;
  item.dataset.kind = step.kind;
  item.dataset.index = String(step.index);
  const head = html('div', 'head');
  head.append(html('span', 'idx', String(step.index + 1)), html('span', 'title', step.title));
  if (step.tool) {
    const status = html('span', `status ${step.tool.status}`, step.tool.status);
    status.classList.add('tool-status');
    head.append(status);
  }
  head.append(html('span', 'meta', stepMeta(step)));
  item.append(head);
  if (step.text) item.append(html('pre', 'text', step.text));
  if (step.tool) {
    item.append(...block('arguments', step.tool.arguments, 'tool-args'));
    if (step.tool.result !== undefined) item.append(...block('result', step.tool.result, 'tool-result'));
  }
  item.addEventListener('click', () => select(step.index, false));
  return item;
}

/** @param {Step} step */
function upsertStep(step) {
  view.steps[step.index] = step;
  const list = byId('steps');
  const fresh = renderStep(step);
  const old = list.querySelector(`li[data-index="${step.index}"]`);
  if (old) old.replaceWith(fresh);
  else list.append(fresh);
}

/** @param {Step | undefined} step */
function showDetail(step) {
  const detail = byId('detail');
  detail.replaceChildren();
  if (!step) return;
  detail.append(html('div', 'detail-title', `${step.index + 1}. ${step.title}`));
  detail.append(html('div', 'usage', `turn ${step.turn} · ${usageText(step.usage, step.cost)} so far`));
  if (step.tool) {
    const duration =
      step.tool.durationMs === undefined ? 'duration not recorded' : `ran ${step.tool.durationMs.toFixed(1)} ms`;
    detail.append(
      html('div', 'duration', `${step.tool.name} (${step.tool.callId}) · ${step.tool.status} · ${duration}`),
    );
    detail.append(...block('arguments', step.tool.arguments, 'tool-args'));
    if (step.tool.result !== undefined) detail.append(...block('result', step.tool.result, 'tool-result'));
  }
  if (step.text) detail.append(html('pre', 'text', step.text));
}

/**
 * @param {number} index
 * @param {boolean} keepFollowing
 */
function select(index, keepFollowing) {
  const count = view.steps.length;
  view.selected = count === 0 ? -1 : Math.max(0, Math.min(count - 1, index));
  if (!keepFollowing) setFollow(view.selected === count - 1 && view.live);
  const step = view.steps[view.selected];
  for (const item of document.querySelectorAll('#steps li.selected')) item.classList.remove('selected');
  const item = document.querySelector(`#steps li[data-index="${view.selected}"]`);
  item?.classList.add('selected');
  item?.scrollIntoView({ block: 'nearest' });
  const scrub = /** @type {HTMLInputElement} */ (byId('scrub'));
  scrub.max = String(Math.max(0, count - 1));
  scrub.value = String(Math.max(0, view.selected));
  byId('position').textContent = count === 0 ? 'no steps' : `step ${view.selected + 1} of ${count}`;
  highlight(step);
  showDetail(step);
}

/** @param {boolean} on */
function setFollow(on) {
  view.follow = on;
  /** @type {HTMLInputElement} */ (byId('follow')).checked = on;
}

function showTotals() {
  const last = view.steps[view.steps.length - 1];
  byId('totals').textContent =
    last && last.turn > 0 ? `${last.turn} turn${last.turn === 1 ? '' : 's'} · ${usageText(last.usage, last.cost)}` : '';
}

/** @param {Snapshot} snapshot */
function loadSnapshot(snapshot) {
  view.graph = snapshot.graph;
  view.live = snapshot.live;
  view.steps = [];
  byId('title').textContent = snapshot.title;
  document.title = `${snapshot.title} · agent-harness inspector`;
  const mode = byId('mode');
  mode.textContent = snapshot.live ? 'live' : 'saved';
  mode.classList.toggle('live', snapshot.live);
  setFollow(snapshot.live);
  drawDiagram(snapshot.graph);
  byId('steps').replaceChildren();
  for (const step of snapshot.steps) upsertStep(step);
  showTotals();
  select(snapshot.live ? snapshot.steps.length - 1 : 0, true);
}

/** @param {Step[]} steps */
function applySteps(steps) {
  for (const step of steps) upsertStep(step);
  showTotals();
  select(view.follow ? view.steps.length - 1 : view.selected, true);
}

function wireControls() {
  byId('first').addEventListener('click', () => select(0, false));
  byId('prev').addEventListener('click', () => select(view.selected - 1, false));
  byId('next').addEventListener('click', () => select(view.selected + 1, false));
  byId('last').addEventListener('click', () => select(view.steps.length - 1, false));
  const scrub = /** @type {HTMLInputElement} */ (byId('scrub'));
  scrub.addEventListener('input', () => select(Number(scrub.value), false));
  const follow = /** @type {HTMLInputElement} */ (byId('follow'));
  follow.addEventListener('change', () => {
    view.follow = follow.checked;
    if (view.follow) select(view.steps.length - 1, true);
  });
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== 'range') return;
    const moves = {
      ArrowLeft: view.selected - 1,
      ArrowUp: view.selected - 1,
      ArrowRight: view.selected + 1,
      ArrowDown: view.selected + 1,
      Home: 0,
      End: view.steps.length - 1,
    };
    const target = /** @type {Record<string, number>} */ (moves)[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target, false);
  });
}

function connect() {
  const source = new EventSource('/api/events');
  source.addEventListener('snapshot', (event) => {
    const snapshot = /** @type {Snapshot} */ (JSON.parse(/** @type {MessageEvent} */ (event).data));
    loadSnapshot(snapshot);
    if (!snapshot.live) source.close();
    document.body.dataset.ready = 'true';
  });
  source.addEventListener('steps', (event) => {
    applySteps(/** @type {Step[]} */ (JSON.parse(/** @type {MessageEvent} */ (event).data)));
  });
  source.addEventListener('error', () => {
    if (view.live) byId('mode').textContent = 'live (reconnecting)';
  });
}

wireControls();
connect();
