// Starts Swagger UI on the API reference page (src/meta/docs-page.ts). A file, not an inline script,
// so the page's Content-Security-Policy can forbid inline scripts.
/* global SwaggerUIBundle */

// The document's server is the installation's public URL (what generated clients need), but the page may
// be opened at another address of the same server (127.0.0.1, its IP, a tunnel) and its CSP lets it call
// only its own origin: "Try it out" sends requests to the address the page was opened at, listed first.
function withThisOrigin(spec) {
  var here = { url: window.location.origin, description: "This page's address" };
  var others = (spec.servers || []).filter(function (server) {
    return server.url.replace(/\/+$/, "") !== here.url;
  });
  spec.servers = [here].concat(others);
  return spec;
}

function start(spec) {
  SwaggerUIBundle({
    spec: withThisOrigin(spec),
    dom_id: "#swagger-ui",
    // Deep links would rewrite the location hash, which docs_url uses for its #errors-CODE anchor.
    deepLinking: false,
    docExpansion: "list",
    tryItOutEnabled: false,
  });
}

window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  fetch(root.getAttribute("data-spec-url"), { headers: { accept: "application/json" } })
    .then(function (response) {
      if (!response.ok) throw new Error("the OpenAPI document answered " + response.status);
      return response.json();
    })
    .then(start, function (error) {
      root.textContent = "The API description could not be loaded: " + error.message;
    });
});
