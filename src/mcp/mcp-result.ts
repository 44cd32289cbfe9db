import { ToolResult } from '../core/tool-result.js';

/** One item of a `tools/call` result's `content` (the fields used here). */
interface ContentItem {
  readonly type?: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: {
    readonly uri?: string;
    readonly text?: string;
    readonly blob?: string;
    readonly mimeType?: string;
  };
}

/** A `tools/call` result (the fields used here); older servers answer `{ toolResult }`. */
export interface McpCallResult {
  readonly content?: readonly ContentItem[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly toolResult?: unknown;
}

/** Bytes encoded by a base64 string, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function summary(kind: string, mimeType: string | undefined, data: string | undefined, uri?: string): string {
  const parts = [
    mimeType ?? kind,
    ...(uri === undefined ? [] : [uri]),
    `${base64Bytes(data ?? '').toLocaleString('en-US')} bytes`,
  ];
  return `[${kind === 'image' || kind === 'audio' ? '' : `${kind} `}${parts.join(', ')}]`;
}

/** One content item as text: text as it is, binary content summarised (`[image/png, 1,234 bytes]`). */
function itemText(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text ?? '';
    case 'image':
    case 'audio':
      return summary(item.type, item.mimeType, item.data);
    case 'resource': {
      const resource = item.resource ?? {};
      if (typeof resource.text === 'string') return resource.text;
      return summary('resource', resource.mimeType, resource.blob, resource.uri);
    }
    case 'resource_link':
      return `[resource link: ${item.uri ?? '?'}${item.name === undefined ? '' : ` (${item.name})`}]`;
    default:
      return `[${String(item.type)} content]`;
  }
}

/**
 * A `tools/call` result as a {@link ToolResult}: the text of its content items joined by
 * newlines (binary items summarised), or its structured content as JSON when there is no
 * content; `isError: true` makes it an error result, so the model reads `Error: …`. The server's
 * text is passed on as it is: it becomes a `tool` message and nothing else.
 */
export function toToolResult(result: McpCallResult): ToolResult {
  let text: string;
  if (Array.isArray(result.content) && result.content.length > 0) {
    text = result.content.map(itemText).join('\n');
  } else if (result.structuredContent !== undefined) {
    text = JSON.stringify(result.structuredContent);
  } else if (result.toolResult !== undefined) {
    text = typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult);
  } else {
    text = '';
  }
  if (result.isError === true) return ToolResult.error(text === '' ? 'the MCP tool failed without a message' : text);
  return ToolResult.success(text);
}
