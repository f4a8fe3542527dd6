/**
 * `toolprep/tasks/client`: call MCP tools that run as tasks (the `io.modelcontextprotocol/tasks`
 * extension of 2026-07-28) from a client, over Streamable HTTP or a transport of your own. No
 * dependency: a fetch and the protocol. `streamableHttp` is also a `rawDispatch` for ext-tasks.
 */
export {
  createTaskClient,
  type ElicitAnswer,
  type QuestionContext,
  type RootsAnswer,
  type TaskAnswers,
  TaskCallError,
  type TaskCallOptions,
  type TaskClient,
  type TaskClientOptions,
  type TaskState,
  type ToolResult,
} from './call.js';
export {
  type Json,
  type RpcAnswer,
  type RpcError,
  type StreamableHttpOptions,
  streamableHttp,
  type TaskTransport,
  type TransportRequestOptions,
} from './http.js';
