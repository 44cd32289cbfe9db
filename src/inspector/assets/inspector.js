// @ts-check
// The inspector page: loads the snapshot and live steps over Server-Sent Events, and moves
// through the timeline (time travel) with the buttons, the slider, clicks and the keyboard.

import { drawDiagram, highlight } from './diagram.js';
import { hideDivergence, showDivergence } from './divergence.js';
import { byId, usageText } from './dom.js';
import { forkControls } from './fork.js';
import { keepExpanded, renderStep, showDetail } from './timeline.js';

/** @typedef {import('./dom.js').Graph} Graph */
/** @typedef {import('./dom.js').Step} Step */
/** @typedef {import('./dom.js').Snapshot} Snapshot */

/** @type {{ graph: Graph | null, steps: Step[], selected: number, follow: boolean, live: boolean, forkToken: string | null }} */
const view = { graph: null, steps: [], selected: -1, follow: true, live: false, forkToken: null };

/** @param {Step} step */
function upsertStep(step) {
  view.steps[step.index] = step;
  const list = byId('steps');
  const fresh = renderStep(step, (index) => select(index, false));
  const old = list.querySelector(`li[data-index="${step.index}"]`);
  if (old) {
    keepExpanded(old, fresh);
    old.replaceWith(fresh);
  } else list.append(fresh);
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
  if (view.forkToken !== null && step?.entries !== undefined) {
    byId('detail').append(forkControls({ ...step, entries: step.entries }, view.forkToken));
  }
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
  view.forkToken = snapshot.fork?.token ?? null;
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
  if (snapshot.divergence) {
    showDivergence(snapshot.divergence, (index) => select(index, false));
    select(Math.max(0, snapshot.divergence.replayed.highlight), true);
  } else {
    hideDivergence();
    select(snapshot.live ? snapshot.steps.length - 1 : 0, true);
  }
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
