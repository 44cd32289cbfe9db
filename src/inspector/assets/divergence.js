// @ts-check
// A replay's divergence: the recorded and the new timeline side by side, each scrolled to and
// highlighting the step where they differ, with the diff. All of it is set as text only.

import { byId } from './dom.js';
import { renderStep } from './timeline.js';

/** @typedef {import('./dom.js').Divergence} Divergence */
/** @typedef {import('./dom.js').DivergenceColumn} DivergenceColumn */

/**
 * @param {string} id
 * @param {DivergenceColumn} column
 * @param {(index: number) => void} onSelect
 */
function fillColumn(id, column, onSelect) {
  const list = byId(id);
  list.replaceChildren(...column.steps.map((step) => renderStep(step, onSelect)));
  byId(`${id}-title`).textContent = `${column.title} · ${column.steps.length} steps`;
  const item = list.querySelector(`li[data-index="${column.highlight}"]`);
  if (!item) return;
  item.classList.add('diverged');
  item.scrollIntoView({ block: 'center' });
}

/**
 * Shows the divergence section (hidden on other pages). Clicking a step of the new run selects
 * it on the machine; the recorded run's steps are there to read.
 * @param {Divergence} view
 * @param {(index: number) => void} selectReplayed
 */
export function showDivergence(view, selectReplayed) {
  const { kind, message, diff, entryIndex } = view.divergence;
  byId('divergence-head').textContent = `${kind} diverged at journal entry ${entryIndex}: ${message}`;
  const pre = byId('divergence-diff');
  pre.textContent = diff;
  pre.hidden = diff === '';
  fillColumn('recorded-steps', view.recorded, () => {});
  fillColumn('replayed-steps', view.replayed, selectReplayed);
  byId('divergence').hidden = false;
  document.body.classList.add('with-divergence');
}

/** Removes the section's content (a snapshot without a divergence). */
export function hideDivergence() {
  byId('divergence').hidden = true;
  document.body.classList.remove('with-divergence');
  for (const id of ['recorded-steps', 'replayed-steps']) byId(id).replaceChildren();
}
