// Starts Swagger UI on /docs with this service's own /openapi.yaml ("Try it out" calls this origin).
'use strict';
window.addEventListener('DOMContentLoaded', () => {
  window.ui = SwaggerUIBundle({
    url: '/openapi.yaml',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null, // never send the document to the public validator
    tryItOutEnabled: true,
  });
});
