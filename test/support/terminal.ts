/** Any character a terminal acts on or that reorders what it shows: C0/C1 controls (not tab, newline), DEL, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
