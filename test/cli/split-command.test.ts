import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../src/cli/split-command.js';

describe('splitCommand', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-filesystem .', ['npx', '-y', '@modelcontextprotocol/server-filesystem', '.']],
    ['  node   server.js  ', ['node', 'server.js']],
    [`node "my server.js" 'a b'`, ['node', 'my server.js', 'a b']],
    [String.raw`echo "say \"hi\" \$HOME \n"`, ['echo', 'say "hi" $HOME \\n']],
    [String.raw`echo 'it'\''s' 'a\b'`, ['echo', "it's", 'a\\b']],
    [String.raw`a\ b c`, ['a b', 'c']],
    [`cmd "" ''`, ['cmd', '', '']],
    [`pre"mid"'end' x`, ['premidend', 'x']],
  ])('splits %s', (line, words) => {
    expect(splitCommand(line, '--mcp')).toEqual(words);
  });

  it('refuses an unclosed quote and an empty command', () => {
    expect(() => splitCommand('node "x', '--mcp')).toThrowError(`--mcp: unclosed " in 'node "x'`);
    expect(() => splitCommand('   ', '--mcp')).toThrowError(/^--mcp needs a command/);
  });
});
