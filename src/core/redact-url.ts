/** A `user:password@` part at the start of a URL or of text that looks like one (`host/…@` is a path). */
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#@\s]+@/i;

/**
 * A URL to show: its user name and password replaced by `***`. Text that does not parse as an
 * http(s) URL but has a `user:password@` part is redacted the same way, so an error message
 * quoting a mistyped URL leaks nothing either.
 */
export function redactUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.username !== '' || url.password !== '') {
      url.username = '***';
      url.password = '';
      return url.href.endsWith('/') && !text.endsWith('/') ? url.href.slice(0, -1) : url.href;
    }
  } catch {
    // not a URL: redact by its shape below
  }
  return text.replace(USER_INFO, '$1***@');
}

/** Whether a URL (or text that looks like one) carries a user name or password. */
export function hasCredentials(text: string): boolean {
  return redactUrl(text) !== text;
}

/** Query parameters that may carry a secret (`?api-key=…`, `?token=…`, `?sig=…`). */
const SECRET_PARAM = /key|token|secret|password|passwd|sig|auth|credential/i;

/**
 * A URL fit to be stored: without its user name, password, fragment, and query parameters that
 * may carry a secret. Text that is not a URL comes back {@link redactUrl}ed.
 */
export function storableUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return redactUrl(text);
  }
  url.username = '';
  url.password = '';
  url.hash = '';
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.delete(name);
  return url.href.endsWith('/') && !text.endsWith('/') ? url.href.slice(0, -1) : url.href;
}

/**
 * A connection URL to show, with its user name kept and its password replaced by `***`
 * (`postgres://me:***@host/db`), also in a `?password=` parameter: what store URLs print as.
 * Strings that are not URLs with credentials come back unchanged. See {@link redactUrl} for a
 * base URL, where the user name itself may be a token.
 */
export function redactPassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):[^/?#]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/i, '$1***');
}
