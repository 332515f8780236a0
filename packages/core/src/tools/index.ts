export {
  findTool,
  NETDIAG_TOOLS,
  operationLimit,
  type RateLimitKind,
  type ToolContext,
  type ToolDefinition,
} from './tools.js';
