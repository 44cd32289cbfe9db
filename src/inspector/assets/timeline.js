// @ts-check
// The timeline: one list item per step, and the detail panel of the selected step.
// Untrusted content (model text, arguments, results) is only ever set with textContent.

import { byId, html, usageText } from './dom.js';

/** @typedef {import('./dom.js').Graph} Graph */
/** @typedef {import('./dom.js').Step} Step */
/** @typedef {import('./dom.js').Reasoning} Reasoning */
/** @typedef {import('./dom.js').DroppedReasoning} DroppedReasoning */
/** @typedef {import('./dom.js').Attachment} Attachment */

/** The image types drawn: the harness's allow-list (SPEC §15). Anything else is named, not drawn. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** @param {number | undefined} bytes */
function sizeText(bytes) {
  if (bytes === undefined) return '';
  if (bytes < 1024) return ` · ${bytes} bytes`;
  return bytes < 1024 * 1024 ? ` · ${(bytes / 1024).toFixed(1)} KB` : ` · ${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A message's images and files: each image whose data the journal holds drawn from a `data:`
 * URL built here (an allow-listed type, base64 only; the page's CSP allows `data:` images and
 * nothing else), with a caption; a file, or an image at a URL, as a labelled note. A URL is
 * shown as text and never loaded.
 * @param {Attachment[]} attachments
 */
function attachmentsBlock(attachments) {
  const box = html('div', 'attachments');
  for (const part of attachments) {
    const figure = html('figure', `attachment ${part.type === 'image' ? 'image' : 'file'}`);
    const drawable =
      part.type === 'image' &&
      typeof part.data === 'string' &&
      IMAGE_TYPES.includes(part.mediaType) &&
      BASE64.test(part.data);
    if (drawable) {
      const image = document.createElement('img');
      image.alt = `image ${part.mediaType}`;
      image.src = `data:${part.mediaType};base64,${part.data}`;
      figure.append(image);
    }
    const name = part.name === undefined ? '' : ` ${part.name}`;
    const where = part.url === undefined ? '' : ` · at ${part.url} (not loaded)`;
    const label = `${part.type === 'image' ? 'image' : 'file'}${name} · ${part.mediaType}${sizeText(part.bytes)}${where}`;
    figure.append(html('figcaption', 'attachment-label', label));
    box.append(figure);
  }
  return box;
}

/** @param {Step} step */
function stepMeta(step) {
  if (step.kind === 'tool_call' && step.tool) {
    const duration = step.tool.durationMs === undefined ? '' : ` · ${step.tool.durationMs.toFixed(1)} ms`;
    const source = step.tool.source === undefined ? '' : `${step.tool.source} · `;
    return `${source}${step.tool.callId}${duration}`;
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

/**
 * The number a step shows: the journal entries up to it, the step's own included (what
 * `fork --at N` and "fork here" keep), so the page and the CLI count alike; the step's position
 * for steps of no journal (WebSocket inspection). Steps made by one entry share its number.
 * @param {Step} step
 */
function stepNumber(step) {
  return String(step.entries ?? step.index + 1);
}

/**
 * A model turn's reasoning, folded (collapsed until opened): each part's summary or text, or
 * that it is redacted or encrypted, under the provider that made it.
 * @param {Reasoning[]} parts
 */
function reasoningBlock(parts) {
  const details = html('details', 'reasoning');
  details.append(html('summary', 'reasoning-head', `reasoning · ${parts.length} part${parts.length === 1 ? '' : 's'}`));
  for (const part of parts) {
    const shown = part.shows === 'redacted' || part.shows === 'encrypted' ? part.shows : part.text;
    details.append(
      html('div', 'label', `${part.provider} · ${part.shows}`),
      html('pre', `reasoning-${part.shows}`, shown),
    );
  }
  // Opening the fold does not select the step (nor, in a child's timeline, the parent's).
  details.addEventListener('click', (event) => event.stopPropagation());
  return details;
}

/**
 * A live turn's reasoning as it streams, folded like a finished turn's (a live update keeps it
 * open once opened, see keepExpanded).
 * @param {string} text
 */
function streamedReasoningBlock(text) {
  const details = html('details', 'reasoning');
  details.append(html('summary', 'reasoning-head', 'reasoning · streaming'), html('pre', 'reasoning-streamed', text));
  details.addEventListener('click', (event) => event.stopPropagation());
  return details;
}

/**
 * What a turn's request left out of the reasoning it was given, one line per provider:
 * "left out 2 reasoning parts of anthropic".
 * @param {DroppedReasoning[]} dropped
 * @returns {HTMLElement[]}
 */
function droppedLines(dropped) {
  return dropped.map(({ provider, parts }) =>
    html('div', 'dropped-reasoning', `left out ${parts} reasoning part${parts === 1 ? '' : 's'} of ${provider}`),
  );
}

/**
 * @param {Step} step
 * @param {(index: number) => void} onSelect
 */
export function renderStep(step, onSelect) {
  const item = html('li', `step ${step.kind}`);
  item.dataset.stepId = step.id;
  item.dataset.kind = step.kind;
  item.dataset.index = String(step.index);
  const head = html('div', 'head');
  const number = html('span', 'idx', stepNumber(step));
  if (step.entries !== undefined)
    number.title = `journal entry ${step.entries}: fork --at ${step.entries} keeps up to here`;
  head.append(number, html('span', 'title', step.title));
  if (step.tool) {
    const status = html('span', `status ${step.tool.status}`, step.tool.status);
    status.classList.add('tool-status');
    head.append(status);
  }
  head.append(html('span', 'meta', stepMeta(step)));
  item.append(head);
  if (step.droppedReasoning) item.append(...droppedLines(step.droppedReasoning));
  if (step.streamedReasoning) item.append(streamedReasoningBlock(step.streamedReasoning));
  if (step.text) item.append(html('pre', 'text', step.text));
  if (step.attachments) item.append(attachmentsBlock(step.attachments));
  if (step.reasoning) item.append(reasoningBlock(step.reasoning));
  if (step.tool) {
    item.append(...block('arguments', step.tool.arguments, 'tool-args'));
    if (step.tool.result !== undefined) item.append(...block('result', step.tool.result, 'tool-result'));
    if (step.tool.attachments) item.append(attachmentsBlock(step.tool.attachments));
    if (step.tool.childSessionId !== undefined) item.append(childRun(step.tool.childSessionId, step.tool.children));
  }
  item.addEventListener('click', () => onSelect(step.index));
  return item;
}

/**
 * A call that ran a child agent (agentTool): its session, and its own timeline, expandable.
 * @param {string} sessionId
 * @param {Step[] | undefined} children
 */
function childRun(sessionId, children) {
  const details = html('details', 'child-run');
  details.dataset.session = sessionId;
  const count = children === undefined ? 'journal not loaded' : `${children.length} steps`;
  details.append(html('summary', 'child-summary', `child agent · session ${sessionId} · ${count}`));
  // Clicks inside the child's timeline expand it, and do not select the parent's step.
  details.addEventListener('click', (event) => event.stopPropagation());
  if (children !== undefined) {
    const list = html('ol', 'child-steps');
    for (const child of children) list.append(renderStep(child, () => {}));
    details.append(list);
  }
  return details;
}

/**
 * A live update replaces a step's item: child runs and reasoning opened in the old item stay
 * open in the new one (a child's timeline grows while the user reads it).
 * @param {Element} old
 * @param {Element} fresh
 */
export function keepExpanded(old, fresh) {
  const reasoning = fresh.querySelector(':scope > details.reasoning');
  if (reasoning instanceof HTMLDetailsElement && old.querySelector(':scope > details.reasoning[open]') !== null)
    reasoning.open = true;
  const open = new Set();
  for (const details of old.querySelectorAll('details.child-run[open]')) {
    if (details instanceof HTMLElement) open.add(details.dataset.session);
  }
  if (open.size === 0) return;
  for (const details of fresh.querySelectorAll('details.child-run')) {
    if (details instanceof HTMLDetailsElement && open.has(details.dataset.session)) details.open = true;
  }
}

/** @param {Step | undefined} step */
export function showDetail(step) {
  const detail = byId('detail');
  detail.replaceChildren();
  if (!step) return;
  const at = step.entries === undefined ? '' : ` (fork --at ${step.entries} keeps up to here)`;
  detail.append(html('div', 'detail-title', `${stepNumber(step)}. ${step.title}${at}`));
  detail.append(html('div', 'usage', `turn ${step.turn} · ${usageText(step.usage, step.cost)} so far`));
  if (step.tool) {
    const duration =
      step.tool.durationMs === undefined ? 'duration not recorded' : `ran ${step.tool.durationMs.toFixed(1)} ms`;
    const source = step.tool.source === undefined ? '' : ` from ${step.tool.source}`;
    detail.append(
      html('div', 'duration', `${step.tool.name}${source} (${step.tool.callId}) · ${step.tool.status} · ${duration}`),
    );
    detail.append(...block('arguments', step.tool.arguments, 'tool-args'));
    if (step.tool.result !== undefined) detail.append(...block('result', step.tool.result, 'tool-result'));
    if (step.tool.attachments) detail.append(attachmentsBlock(step.tool.attachments));
  }
  if (step.droppedReasoning) detail.append(...droppedLines(step.droppedReasoning));
  if (step.streamedReasoning) detail.append(streamedReasoningBlock(step.streamedReasoning));
  if (step.text) detail.append(html('pre', 'text', step.text));
  if (step.attachments) detail.append(attachmentsBlock(step.attachments));
  if (step.reasoning) detail.append(reasoningBlock(step.reasoning));
}
