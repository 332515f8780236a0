// Starts Swagger UI (served from this origin by /docs/assets) on netdiag's OpenAPI document.

document.addEventListener('DOMContentLoaded', () => {
  // eslint-disable-next-line no-undef
  SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui', deepLinking: true });
});
