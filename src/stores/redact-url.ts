/**
 * `url` with any password replaced by `***` (`postgres://me:***@host/db`), so it can appear in
 * messages and logs. Strings that are not URLs with credentials come back unchanged.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/i, '$1***');
}
