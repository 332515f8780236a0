/**
 * The routes of the capability registry: one per descriptor with an `http` face. The route reads
 * the query and path values (or the JSON body of a POST) with the descriptor's parameter schema
 * and answers with its `run`; the OpenAPI entry comes from the same descriptor.
 * @module
 */
import { CAPABILITIES, type Capability, parseParams, toJsonSchema } from '@netdiag/core';
import { callerConnection } from '../caller.js';
import { paramsOf } from '../openapi/core-schemas.js';
import { readJsonBody } from './body.js';
import type { ParamDef, RouteDef } from './types.js';

function routeOf(capability: Capability): RouteDef {
  const face = capability.http;
  if (!face) throw new Error(`capability ${capability.id} has no HTTP face`);
  const path = [...face.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  const post = face.method === 'post';
  // The JSON Schemas are made on first read (the OpenAPI document, the unknown-parameter
  // check): making all of them at start was ~5 % of the server's start (a CPU profile of
  // bench/production/start.bench.ts).
  let params: ParamDef[] | undefined;
  let body: RouteDef['body'];
  let data: RouteDef['data'];
  return {
    method: face.method,
    path: face.path,
    operationId: capability.id,
    tag: face.tag,
    summary: face.summary,
    description: face.description,
    get params() {
      if (post) return undefined;
      params ??= paramsOf(capability.params, face.paramExamples, { path });
      return params;
    },
    get body() {
      if (!post) return undefined;
      body ??= {
        schema: toJsonSchema(capability.params, { io: 'input' }),
        example: face.paramExamples,
      };
      return body;
    },
    get data() {
      data ??= toJsonSchema(capability.data);
      return data;
    },
    example: face.example,
    errors: face.errors,
    ...(face.dataStatuses ? { dataStatuses: face.dataStatuses } : {}),
    handle({ req, ctx, signal }) {
      const raw = post ? readJsonBody(req) : { ...(req.query as object), ...req.params };
      return capability.run(ctx.engine, parseParams(capability.params, raw), {
        signal,
        caller: callerConnection(req),
      });
    },
  };
}

/** Every registry route, in the registry's order. */
export const capabilityRoutes: RouteDef[] = CAPABILITIES.filter((c) => c.http).map(routeOf);
