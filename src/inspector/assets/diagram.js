// @ts-check
// The machine diagram: a layered SVG layout of the graph, and the highlighted state and edge.

import { byId, eventLabel, svg } from './dom.js';

/** @typedef {import('./dom.js').Graph} Graph */
/** @typedef {import('./dom.js').Step} Step */

const NODE_W = 136;
const NODE_H = 52;
const COL_GAP = 44;
const ROW_GAP = 34;
const PAD = 24;

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

/** Space around a child agent's machine inside its frame, and above it for the frame's title. */
const FRAME_PAD = 12;
const FRAME_TITLE = 26;

/** @param {SVGElement} diagram */
function addArrows(diagram) {
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
}

/**
 * Draws a graph's states and edges into `target`, then, below them, the machine of each child
 * agent a state's spawned actor runs, framed and linked to that state, as deep as they nest.
 * The top graph's states are `g.state` (the ones highlighted); a child's are `g.child-state`.
 * @param {SVGElement} target
 * @param {Graph} graph
 * @param {boolean} top
 * @returns {{ width: number, height: number }}
 */
function drawGraph(target, graph, top) {
  const positions = layout(graph);
  let width = Math.max(...[...positions.values()].map((p) => p.x)) + NODE_W + PAD;
  let height = Math.max(...[...positions.values()].map((p) => p.y)) + NODE_H + PAD + 40;
  const start = positions.get(graph.initial);
  if (start) {
    target.append(svg('circle', { cx: start.x - 14, cy: start.y + NODE_H / 2, r: 5, fill: '#687083' }));
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
    target.append(path);
  }
  for (const state of graph.states) {
    const p = positions.get(state.id);
    if (!p) continue;
    const group = svg('g', { class: `${top ? 'state' : 'child-state'}${state.final ? ' final' : ''}` });
    group.dataset.state = state.id;
    group.append(svg('rect', { x: p.x, y: p.y, width: NODE_W, height: NODE_H, rx: 10 }));
    // A spawned actor that runs a child machine (a sub-agent) says so: `spawn runTool ⊃ agent`.
    const nested = (/** @type {string} */ s) =>
      (state.nests ?? [])
        .filter((nest) => nest.actor === s)
        .map((nest) => ` ⊃ ${nest.machine}`)
        .join('');
    const actors = [...state.invokes.map((s) => `invoke ${s}`), ...state.spawns.map((s) => `spawn ${s}${nested(s)}`)];
    const name = svg('text', { x: p.x + NODE_W / 2, y: p.y + (actors.length ? 22 : 31), class: 'name' });
    name.textContent = state.id;
    group.append(name);
    actors.forEach((line, i) => {
      const text = svg('text', { x: p.x + NODE_W / 2, y: p.y + 38 + i * 12, class: 'actor' });
      text.textContent = line;
      group.append(text);
    });
    target.append(group);
  }
  for (const state of graph.states) {
    const p = positions.get(state.id);
    for (const child of state.children ?? []) {
      if (!p) continue;
      const size = drawChild(target, child, state.id, { x: PAD, y: height });
      const link = svg('path', {
        d: `M${p.x + NODE_W / 2},${p.y + NODE_H} C${p.x + NODE_W / 2},${height} ${PAD + 40},${height - 20} ${PAD + 40},${height}`,
        class: 'spawn-link',
      });
      target.append(link);
      width = Math.max(width, size.width + 2 * PAD);
      height += size.height + PAD;
    }
  }
  return { width, height };
}

/**
 * A child agent's machine in a frame at `at`, titled with the tool and the actor that runs it.
 * @param {SVGElement} target
 * @param {import('./dom.js').ChildGraph} child
 * @param {string} state
 * @param {{ x: number, y: number }} at
 * @returns {{ width: number, height: number }}
 */
function drawChild(target, child, state, at) {
  const frame = svg('g', { class: 'child-machine', transform: `translate(${at.x},${at.y})` });
  frame.dataset.agent = child.name;
  frame.dataset.depth = String(child.depth);
  const title = svg('text', { x: FRAME_PAD, y: 18, class: 'child-title' });
  const what = child.graph ? `child agent, depth ${child.depth}` : 'drawn above (agents call each other)';
  title.textContent = `${child.name} · ${what} · spawned by ${child.actor} in ${state}`;
  const inner = svg('g', { transform: `translate(${FRAME_PAD},${FRAME_TITLE})` });
  const size = child.graph ? drawGraph(inner, child.graph, false) : { width: 320, height: 0 };
  const width = size.width + 2 * FRAME_PAD;
  const height = size.height + FRAME_TITLE + FRAME_PAD;
  frame.append(svg('rect', { x: 0, y: 0, width, height, rx: 12, class: 'child-frame' }), title, inner);
  target.append(frame);
  return { width, height };
}

/** @param {Graph} graph */
export function drawDiagram(graph) {
  const diagram = byId('diagram');
  diagram.replaceChildren();
  if (graph.states.length === 0) {
    diagram.setAttribute('viewBox', '0 0 480 60');
    const note = svg('text', { x: 16, y: 34, class: 'empty' });
    note.textContent = 'no machine yet: waiting for an XState app to connect';
    diagram.append(note);
    return;
  }
  if (!(diagram instanceof SVGElement)) return;
  addArrows(diagram);
  const { width, height } = drawGraph(diagram, graph, true);
  diagram.setAttribute('viewBox', `0 0 ${width} ${height}`);
}

/** @param {Step | undefined} step */
export function highlight(step) {
  const state = step?.state ?? null;
  for (const group of document.querySelectorAll('#diagram > g.state')) {
    if (!(group instanceof SVGElement)) continue;
    group.classList.toggle('current', group.dataset.state === state);
  }
  for (const path of document.querySelectorAll('#diagram > path.edge')) {
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
