// @ts-check
// "Fork here": asks the server for a new session made of the journal up to the selected step.
// Offered only when the page's snapshot carries a fork token (a stored session, `inspect ID`).

import { html } from './dom.js';

/** @typedef {import('./dom.js').Step} Step */

/**
 * @param {unknown} value
 * @returns {{ id?: unknown, url?: unknown, error?: { reason?: unknown, message?: unknown } }}
 */
function asReply(value) {
  return typeof value === 'object' && value !== null ? /** @type {never} */ (value) : {};
}

/**
 * @param {HTMLElement} status
 * @param {unknown} body
 */
function showForked(status, body) {
  const reply = asReply(body);
  const id = String(reply.id);
  status.replaceChildren(html('span', 'fork-done', `forked into session ${id}`));
  if (typeof reply.url === 'string' && /^http:\/\//.test(reply.url)) {
    const link = /** @type {HTMLAnchorElement} */ (html('a', 'fork-open', 'open it'));
    link.href = reply.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    status.append(' · ', link);
  }
  status.append(
    html('pre', 'fork-command', `agent-harness resume ${id}\nagent-harness run --session ${id} "<message>"`),
  );
}

/**
 * The "fork here" button of a step, with the line that reports what happened.
 * @param {Step & { entries: number }} step
 * @param {string} token
 * @returns {HTMLElement}
 */
export function forkControls(step, token) {
  const box = html('div', 'fork');
  const button = /** @type {HTMLButtonElement} */ (html('button', 'fork-here', 'fork here'));
  button.type = 'button';
  button.title = `a new session holding the first ${step.entries} journal entries (up to this step)`;
  const status = html('div', 'fork-status');
  status.setAttribute('role', 'status');
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'forking…';
    try {
      const response = await fetch('/api/fork', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-agent-harness-token': token },
        body: JSON.stringify({ at: step.entries }),
      });
      const body = await response.json();
      if (response.ok) showForked(status, body);
      else status.replaceChildren(html('span', 'fork-error', `fork failed: ${String(asReply(body).error?.message)}`));
    } catch (error) {
      status.replaceChildren(html('span', 'fork-error', `fork failed: ${String(error)}`));
    } finally {
      button.disabled = false;
    }
  });
  box.append(button, status);
  return box;
}
