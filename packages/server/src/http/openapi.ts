import { z } from 'zod';
import type { RouteDef } from './route.js';

const ACCESS_TEXT: Record<RouteDef['access'], string> = {
  public: 'No credentials',
  visitor: 'Any caller of the site: visitor or member token, API key',
  member: 'A logged-in member token',
  elevated: 'An owner API key (with wix-site-id) or an app',
};

function jsonSchema(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  } catch {
    return {};
  }
}

/** An OpenAPI 3.1 document built from the route declarations, so it cannot drift from the code. */
export function buildOpenApi(routes: RouteDef[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of routes) {
    const path = def.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const params = [...def.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const methods = def.postTwin ? [def.method, 'POST'] : [def.method];
    for (const method of methods) {
      const hasBody = method !== 'GET' && method !== 'DELETE';
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = {
        summary: def.summary,
        tags: [def.tag ?? def.path.split('/').filter(Boolean)[0] ?? 'api'],
        'x-access': def.access,
        description: `Access: ${ACCESS_TEXT[def.access]}.${method === 'GET' && def.postTwin ? ' Nested payloads go in one `.r` query parameter (base64url JSON); the POST twin takes the same payload as a JSON body.' : ''}`,
        parameters: [
          ...params,
          ...(hasBody ? [] : [{ name: '.r', in: 'query', required: false, schema: { type: 'string' }, description: 'base64url (no padding) of the JSON payload' }]),
        ],
        ...(hasBody ? { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(def.request) } } } } : { 'x-payload': jsonSchema(def.request) }),
        ...(def.access === 'public' ? {} : { security: [{ accessToken: [] }] }),
        responses: {
          200: { description: 'Success', content: def.raw ? {} : { 'application/json': { schema: def.response ? jsonSchema(def.response) : {} } } },
          default: { description: 'Error: an applicationError or validationError body (contracts/wire.md)' },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vitrine API', version: '0.1.0', description: 'The platform REST contract as Vitrine serves it. Send the raw access token or API key in Authorization (no scheme word).' },
    components: { securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
  };
}
