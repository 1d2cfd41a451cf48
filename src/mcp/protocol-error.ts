/**
 * A JSON-RPC error as the agent reads it: the SDK sends a thrown error's `code`, `message` and `data`.
 * Not the SDK's McpError, whose message is already "MCP error <code>: …": the client adds that prefix
 * itself, so an agent read "MCP error -32602: MCP error -32602: Unknown tool: x".
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}
