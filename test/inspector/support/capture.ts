/** An Output that keeps what was written, and tells when a line matching `pattern` appears. */
export function capture(): {
  write: (chunk: string) => void;
  text: () => string;
  line: (pattern: RegExp) => Promise<RegExpExecArray>;
} {
  let text = '';
  const waiting: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];
  const check = (): void => {
    for (const wait of waiting.slice()) {
      const match = wait.pattern.exec(text);
      if (match) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(match);
      }
    }
  };
  return {
    write: (chunk) => {
      text += chunk;
      check();
    },
    text: () => text,
    line: (pattern) =>
      new Promise((resolve) => {
        waiting.push({ pattern, resolve });
        check();
      }),
  };
}
