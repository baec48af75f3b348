// Starts Swagger UI on /docs with this service's own /openapi.yaml. The document's `servers` names
// the default http://localhost:8080; here it is replaced by this page's origin, so "Try it out"
// calls the service that served the page (which is also all the page's CSP lets it connect to).
'use strict';
window.addEventListener('DOMContentLoaded', async () => {
  const response = await fetch('/openapi.yaml');
  const spec = jsyaml.load(await response.text());
  spec.servers = [{url: window.location.origin, description: 'this service'}];
  window.ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null, // never send the document to a public validator
  });
});
