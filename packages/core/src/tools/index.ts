export {
  findTool,
  NETDIAG_TOOLS,
  type ToolContext,
  type ToolDefinition,
} from './tools.js';
