// @ts-check
// Shared by the inspector page's modules: data shapes and small DOM helpers.

/**
 * @typedef {{ id: string, final: boolean, invokes: string[], spawns: string[], nests?: { actor: string, machine: string, when: string }[],
 *   children?: ChildGraph[] }} GraphState
 */
/** @typedef {{ actor: string, name: string, depth: number, graph?: Graph }} ChildGraph */
/** @typedef {{ from: string, to: string, event: string, guard?: string }} GraphEdge */
/** @typedef {{ id: string, initial: string, states: GraphState[], edges: GraphEdge[] }} Graph */
/** @typedef {{ promptTokens: number, completionTokens: number, totalTokens: number }} Usage */
/** @typedef {{ type: string, mediaType: string, bytes?: number, data?: string, url?: string, name?: string }} Attachment */
/** @typedef {{ callId: string, name: string, arguments: string, status: string, result?: string, attachments?: Attachment[], source?: string, durationMs?: number, childSessionId?: string, children?: Step[] }} ToolCall */
/** @typedef {{ provider: string, shows: 'summary' | 'text' | 'redacted' | 'encrypted', text: string }} Reasoning */
/** @typedef {{ provider: string, parts: number }} DroppedReasoning */
/**
 * @typedef {{ id: string, index: number, kind: string, state: string | null, from?: string, event?: string,
 *   title: string, text?: string, attachments?: Attachment[], tool?: ToolCall, reasoning?: Reasoning[], streamedReasoning?: string,
 *   droppedReasoning?: DroppedReasoning[],
 *   turn: number, usage: Usage, cost: number, entries?: number }} Step
 */
/** @typedef {{ title: string, steps: Step[], highlight: number }} DivergenceColumn */
/**
 * @typedef {{ divergence: { entryIndex: number, kind: string, message: string, diff: string },
 *   recorded: DivergenceColumn, replayed: DivergenceColumn }} Divergence
 */
/** @typedef {{ title: string, live: boolean, graph: Graph, steps: Step[], fork?: { token: string }, divergence?: Divergence }} Snapshot */

const SVG = 'http://www.w3.org/2000/svg';

/**
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
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
export function html(tag, className, text) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = visible(text);
  return element;
}

/** Bidi embeddings, overrides, isolates and marks: they can make a line read unlike what it holds. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Untrusted text with each bidi control shown as a marker (`⟨U+202E⟩`) instead of acting.
 * @param {string} text
 * @returns {string}
 */
export function visible(text) {
  return text.replace(BIDI, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @returns {SVGElement}
 */
export function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}

/** @param {Usage} usage @param {number} cost */
export function usageText(usage, cost) {
  return `${usage.totalTokens} tokens (${usage.promptTokens} in / ${usage.completionTokens} out) · $${cost.toFixed(6)}`;
}

/** @param {string} event */
export function eventLabel(event) {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event);
  return match ? `${match[1]}(${match[2]})` : event;
}
