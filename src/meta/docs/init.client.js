// Starts Swagger UI on the API reference page (src/meta/docs-page.ts). A file, not an inline script,
// so the page's Content-Security-Policy can forbid inline scripts.
/* global SwaggerUIBundle */
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    dom_id: "#swagger-ui",
    // Deep links would rewrite the location hash, which docs_url uses for its #errors-CODE anchor.
    deepLinking: false,
    docExpansion: "list",
    tryItOutEnabled: false,
  });
});
