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

const API_DESCRIPTION = [
  'The platform REST contract as Vitrine serves it.',
  'To try a call: get a visitor token with `POST /oauth2/token` and the body `{"clientId": "demo", "grantType": "anonymous"}`',
  '(the demo site\'s OAuth client), then choose **Authorize** and paste its `access_token` as `accessToken`.',
  'Owner calls take an API key (`vitrine create-api-key --site demo`) as `accessToken` and the site id as `siteId`.',
  'GET calls with a nested payload take it as one `.r` query parameter (base64url JSON); errors are `applicationError` or `validationError` bodies.',
].join(' ');

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
        ...(def.access === 'public' ? {} : { security: [{ accessToken: [], siteId: [] }] }),
        responses: {
          200: { description: 'Success', content: def.raw ? {} : { 'application/json': { schema: def.response ? jsonSchema(def.response) : {} } } },
          default: { description: 'Error: an applicationError or validationError body (docs/api.md)' },
        },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vitrine API', version: '0.1.0', description: API_DESCRIPTION },
    components: {
      securitySchemes: {
        accessToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'A visitor or member access token, or an owner API key: the raw value, no scheme word.' },
        siteId: { type: 'apiKey', in: 'header', name: 'wix-site-id', description: 'The site id; needed with an API key (tokens carry their site).' },
      },
    },
    paths,
  };
}
