export {
  findTool,
  NETDIAG_TOOLS,
  operationLimit,
  type ToolContext,
  type ToolDefinition,
} from './tools.js';
