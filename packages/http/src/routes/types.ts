/**
 * The route table contract. Each capability contributes `RouteDef`s; the router mounts them and
 * the OpenAPI document is generated from the same objects, so the two cannot drift apart.
 * @module
 */
import type { JsonSchema } from '@netdiag/core';
import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';

export interface ParamDef {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description: string;
  schema: JsonSchema;
  example?: unknown;
}

export interface RouteRequest {
  req: Request;
  res: Response;
  ctx: AppContext;
  /** The caller's address (CONTRACT §3), IPv4-mapped IPv6 shown as IPv4. */
  callerIp: string;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export interface RouteDef {
  method: 'get' | 'post';
  /** Express path, e.g. `/api/v1/dns/:domain`. */
  path: string;
  /** Stable OpenAPI operationId. */
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * The parameters the route takes. Under `/api/` a query parameter not listed here is a 400
   * naming the listed ones (`refuseUnknownParams` in params.ts), unless `anyQuery` is set.
   */
  params?: ParamDef[];
  /** Any query parameter is accepted and ignored: the route answers about the request itself. */
  anyQuery?: true;
  /** JSON request body schema (POST routes). */
  body?: { schema: JsonSchema; example?: unknown };
  /**
   * Schema of `data` in the success envelope, from the operation's core schema
   * (`dataSchema(operationId)`); absent for `raw` routes.
   */
  data?: JsonSchema;
  example?: unknown;
  /** Error statuses this route can answer with (429 and 500 are added for every /api route). */
  errors: number[];
  /** Statuses other than 200 answered with the success envelope, and what they mean. */
  dataStatuses?: Record<number, string>;
  /**
   * The route writes its own body instead of the envelope (the OpenAPI document, metrics);
   * `handle` must send the response itself.
   */
  raw?: {
    /** Its media type; several when the answer depends on the request (Accept, the file). */
    contentType: string | readonly string[];
    description: string;
    /** The schema of a JSON answer (default: an object of any shape); text is a string. */
    schema?: JsonSchema;
    /** The other answers it writes itself: status → what it means, and its JSON body if any. */
    statuses?: Record<number, { description: string; schema?: JsonSchema }>;
  };
  /** Parse params → call core → return `data`. Throw NetdiagErrors for failures. */
  handle(request: RouteRequest): Promise<unknown> | unknown;
}
