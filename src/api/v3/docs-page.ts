/**
 * The interactive docs page at `/api/v3/`: Scalar's API reference with the OpenAPI document embedded in the page,
 * so it renders at once (no second request for the spec), and its script served from the installed package
 * (no CDN: a self-hosted gateway may be offline). The hosted-service features of Scalar (its AI agent, the
 * developer toolbar with "Share" / "Deploy", telemetry) are turned off: they call Scalar's servers.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/** Scalar's configuration for a self-hosted, possibly offline page. */
export const DOCS_CONFIGURATION = {
  // the "Ask AI" agent sends the document to Scalar's service
  agent: { disabled: true },
  // the toolbar ("Share", "Deploy", document download to Scalar's registry) shows on localhost by default
  showDeveloperTools: 'never',
  telemetry: false,
  hideClientButton: false,
  _integration: 'fastify',
} as const;

let script: string | undefined;

/** The standalone bundle shipped in @scalar/fastify-api-reference (dist/js/standalone.js), read once. */
function scalarScript(): string {
  if (script === undefined) {
    const entry = fileURLToPath(import.meta.resolve('@scalar/fastify-api-reference'));
    script = readFileSync(join(dirname(entry), 'js', 'standalone.js'), 'utf8');
  }
  return script;
}

/** JSON that is safe inside a <script> element: no `</script>`, `<!--` or line separators can end or bend it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page: the spec is part of the configuration object handed to Scalar.createApiReference. */
export function docsHtml(spec: unknown, title: string): string {
  const configuration = { ...DOCS_CONFIGURATION, content: spec };
  return `<!doctype html>
<html>
  <head>
    <title>${escapeHtml(title)}</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="js/scalar.js"></script>
    <script type="text/javascript">
      Scalar.createApiReference('#app', ${scriptJson(configuration)})
    </script>
  </body>
</html>
`;
}

/**
 * Registers `/` (the page; `''` redirects there, so relative URLs resolve under the prefix) and `/js/scalar.js`
 * on `app` (already prefixed, e.g. /api/v3). `spec` is called once, at the first request, after every route exists.
 */
export function docsRoutes(app: FastifyInstance, spec: () => unknown, title: string): void {
  let html: string | undefined;
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    // a page at /api/v3 (no slash) would load js/scalar.js from /api/: send it to /api/v3/
    const path = request.url.split('?')[0];
    if (!path.endsWith('/')) return reply.redirect(`${path}/`, 301);
    html ??= docsHtml(spec(), title);
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.get('/js/scalar.js', { schema: { hide: true } }, async (_request, reply) => {
    return reply.type('application/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(scalarScript());
  });
}
