// featureboard widget: <script src="https://board.example/widget.js" data-key="pk_…" async></script>
// Adds a "Feedback" button that opens a panel, in a shadow root so the host page's CSS cannot reach it,
// to submit a request and vote on the top requests through the public API of the script's own origin.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var key = script.getAttribute("data-key") || "";
  var origin = new URL(script.src).origin;
  var label = script.getAttribute("data-label") || "Feedback";

  // @include visitor-messages.client.js
  // @include limits

  var CSS =
    ":host{all:initial}" +
    "*{box-sizing:border-box}" +
    ".root{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1f2330;overflow-wrap:anywhere}" +
    ".launcher{position:fixed;right:20px;bottom:20px;z-index:2147483000;background:var(--fb-accent,#3f3fc4);color:#fff;border:0;border-radius:999px;min-height:44px;padding:10px 18px;font:inherit;font-weight:600;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.2)}" +
    ".panel{position:fixed;right:20px;bottom:76px;z-index:2147483000;width:min(360px,calc(100vw - 40px));max-height:calc(100vh - 100px);overflow:auto;overscroll-behavior:contain;background:#fff;border:1px solid #d9dce3;border-radius:12px;box-shadow:0 10px 30px rgba(0,0,0,.18);padding:16px}" +
    ".panel[hidden]{display:none}" +
    "h2{font-size:17px;margin:0 0 8px;min-width:0}h3{font-size:14px;margin:16px 0 6px;color:#545b6b}" +
    ".head{display:flex;justify-content:space-between;align-items:center}" +
    ".close{background:none;border:0;font-size:20px;cursor:pointer;color:#545b6b;min-width:44px;min-height:44px;margin-right:-10px;padding:0}" +
    "label{display:block;font-size:13px;font-weight:600;margin:8px 0 2px}" +
    "input,textarea{width:100%;font:inherit;font-size:16px;border:1px solid #8a90a0;border-radius:6px;padding:6px 8px;color:#1f2330;background:#fff}" +
    "input{min-height:44px}textarea{resize:vertical}" +
    ".send{margin-top:10px;background:var(--fb-accent,#3f3fc4);color:#fff;border:0;border-radius:6px;min-height:44px;padding:8px 14px;font:inherit;font-weight:600;cursor:pointer}" +
    ".status{min-height:1.4em;margin:6px 0 0;font-size:13px;font-weight:600}.status.error{color:#b91c1c}" +
    ".note{margin:4px 0 0;font-size:12px;color:#545b6b}" +
    "ol{list-style:none;margin:0;padding:0}li{display:flex;gap:10px;align-items:center;padding:6px 0;border-top:1px solid #eceef2}" +
    "li a{flex:1;min-width:0;padding:10px 0}" +
    ".vote{flex:none;white-space:nowrap;min-width:3.75em;min-height:44px;border:1px solid #d9dce3;background:#fff;border-radius:6px;padding:4px 6px;font:inherit;font-weight:700;cursor:pointer;color:#1f2330}" +
    ".vote[aria-pressed=true]{background:var(--fb-accent,#3f3fc4);color:#fff;border-color:var(--fb-accent,#3f3fc4)}" +
    "a{color:var(--fb-accent,#3f3fc4)}:focus-visible{outline:3px solid var(--fb-accent,#3f3fc4);outline-offset:2px}" +
    ".more{font-size:13px;margin-top:4px;padding:12px 0;display:block}" +
    ".sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}" +
    ".vote[aria-disabled=true]{cursor:progress}";

  function storageGet(name) {
    try {
      return window.localStorage.getItem(name);
    } catch {
      return null;
    }
  }
  function storageSet(name, value) {
    try {
      window.localStorage.setItem(name, value);
    } catch {
      // Storage refused: the id lasts for this page only.
    }
  }
  var memoryId = null;
  function anonymousId() {
    var id = storageGet("featureboard:anonymousId") || memoryId;
    if (!id) {
      id =
        "anon_" +
        (window.crypto && crypto.randomUUID
          ? crypto.randomUUID()
          : String(Math.random()).slice(2) + Date.now());
      storageSet("featureboard:anonymousId", id);
    }
    memoryId = id;
    return id;
  }

  // Plain-text bodies keep the GETs and POSTs "simple" cross-origin requests (no preflight round trip):
  // the public API reads every body as JSON whatever its Content-Type. Removing a vote (DELETE) is
  // preflighted, which the public API answers.
  function request(method, path, body, headers) {
    var init = { method: method, mode: "cors", credentials: "omit", headers: headers || {} };
    if (body !== undefined) {
      init.headers["content-type"] = "text/plain;charset=UTF-8";
      init.body = JSON.stringify(body);
    }
    return fetch(origin + path, init).then(readAnswer, noAnswer);
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function mount(board) {
    // The board is served by the same origin as this script.
    var boardUrl = origin + "/b/" + encodeURIComponent(board.slug);
    var host = element("div", { "data-featureboard-widget": board.slug });
    // The board's accent colour (set on the dashboard) reaches the shadow root's styles as a variable.
    if (board.accentColor && /^#[0-9a-f]{6}$/.test(board.accentColor)) {
      host.style.setProperty("--fb-accent", board.accentColor);
    }
    var shadow = host.attachShadow({ mode: "open" });
    if (
      "adoptedStyleSheets" in shadow &&
      typeof CSSStyleSheet === "function" &&
      "replaceSync" in CSSStyleSheet.prototype
    ) {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      shadow.adoptedStyleSheets = [sheet];
    } else {
      shadow.appendChild(element("style", {}, CSS));
    }
    var root = element("div", { class: "root" });
    var launcher = element(
      "button",
      { class: "launcher", type: "button", "aria-expanded": "false", "aria-controls": "fb-panel" },
      label,
    );
    var panel = element("section", {
      class: "panel",
      id: "fb-panel",
      role: "dialog",
      "aria-labelledby": "fb-title",
    });
    panel.hidden = true;

    var head = element("div", { class: "head" });
    var heading = element("h2", { id: "fb-title" }, "Feedback for ");
    // The board's name and the requests' titles are written by people, in any script: each takes its
    // direction from its own text, and an override character in one stops there (docs/web.md).
    heading.appendChild(element("bdi", {}, board.name));
    head.appendChild(heading);
    var close = element(
      "button",
      { class: "close", type: "button", "aria-label": "Close feedback panel" },
      "×",
    );
    head.appendChild(close);
    panel.appendChild(head);

    var form = element("form", { class: "form" });
    var fields = [
      [
        "fb-title-input",
        "title",
        "What would you like?",
        "input",
        { required: "", maxlength: String(LIMITS.postTitleLength) },
      ],
      [
        "fb-description",
        "description",
        "Details (optional)",
        "textarea",
        { rows: "3", maxlength: String(LIMITS.postDescriptionLength) },
      ],
      [
        "fb-email",
        "email",
        "Email (optional)",
        "input",
        {
          type: "email",
          maxlength: String(LIMITS.emailLength),
          autocomplete: "email",
          "aria-describedby": "fb-email-note",
        },
      ],
    ];
    fields.forEach(function (field) {
      form.appendChild(element("label", { for: field[0] }, field[2]));
      var attributes = field[4];
      attributes.id = field[0];
      attributes.name = field[1];
      form.appendChild(element(field[3], attributes));
    });
    // An email typed here gets mail only once confirmed (docs/payments-and-email.md): said where it is typed.
    form.appendChild(element("p", { class: "note", id: "fb-email-note" }, EMAIL_CONFIRMATION_NOTE));
    function labelOf(name) {
      var field = form.elements.namedItem(name);
      return field ? labelText(form.querySelector('label[for="' + field.id + '"]')) : null;
    }
    // The browser refused a field (an email without @): an earlier answer no longer applies.
    form.addEventListener(
      "invalid",
      function () {
        status.className = "status";
        status.textContent = "";
      },
      true,
    );
    var send = element("button", { class: "send", type: "submit" }, "Send request");
    var status = element("p", { class: "status", role: "status", "aria-live": "polite" });
    form.appendChild(send);
    form.appendChild(status);
    panel.appendChild(form);

    panel.appendChild(element("h3", { id: "fb-top" }, "Top requests"));
    var list = element("ol", { "aria-labelledby": "fb-top" });
    panel.appendChild(list);
    // What a vote did, for screen readers (the button shows the new count): a polite live region, there
    // before it is written to so that it is announced.
    var voteResult = element("p", { class: "sr-only", role: "status", "aria-live": "polite" });
    panel.appendChild(voteResult);
    var more = element(
      "a",
      { class: "more", href: boardUrl, target: "_blank", rel: "noopener" },
      "See all requests",
    );
    panel.appendChild(more);

    root.appendChild(panel);
    root.appendChild(launcher);
    shadow.appendChild(root);
    document.body.appendChild(host);

    var votesKey = "featureboard:votes:" + board.slug;
    function voted() {
      try {
        return JSON.parse(storageGet(votesKey) || "[]");
      } catch {
        return [];
      }
    }

    function renderTop(posts) {
      list.textContent = "";
      var mine = voted();
      if (posts.length === 0) list.appendChild(element("li", {}, "No requests yet."));
      posts.forEach(function (post) {
        var item = element("li");
        var pressed = mine.indexOf(post.id) >= 0;
        var button = element(
          "button",
          {
            class: "vote",
            type: "button",
            "aria-pressed": String(pressed),
            "aria-label": "Vote for " + post.title + ", " + plural(post.voteCount, "vote"),
          },
          "▲ " + post.voteCount,
        );
        // While a vote is on its way the button says so (aria-disabled) and ignores clicks, but it is not
        // disabled: a disabled button loses the keyboard focus, and the next Enter would go nowhere.
        var pending = false;
        button.addEventListener("click", function () {
          if (pending) return;
          pending = true;
          button.setAttribute("aria-disabled", "true");
          var wasVoted = button.getAttribute("aria-pressed") === "true";
          var path =
            "/api/public/boards/" +
            encodeURIComponent(board.slug) +
            "/posts/" +
            encodeURIComponent(post.id) +
            "/vote";
          request(wasVoted ? "DELETE" : "POST", path, { anonymousId: anonymousId() })
            .then(function (json) {
              var count = json.data.voteCount;
              button.textContent = "▲ " + count;
              button.setAttribute("aria-pressed", String(!wasVoted));
              button.setAttribute(
                "aria-label",
                (wasVoted ? "Vote for " : "You voted for ") + post.title + ", " + plural(count, "vote"),
              );
              var list = voted().filter(function (id) {
                return id !== post.id;
              });
              if (!wasVoted) list.push(post.id);
              storageSet(votesKey, JSON.stringify(list));
              voteResult.textContent =
                (wasVoted ? "Vote removed: " : "Vote counted: ") + plural(count, "vote");
            })
            .catch(function (error) {
              status.className = "status error";
              status.textContent = visitorMessage(error, null);
            })
            .then(function () {
              pending = false;
              button.removeAttribute("aria-disabled");
            });
        });
        item.appendChild(button);
        item.appendChild(
          element(
            "a",
            {
              href: boardUrl + "/posts/" + encodeURIComponent(post.id),
              target: "_blank",
              rel: "noopener",
              dir: "auto",
            },
            post.title,
          ),
        );
        list.appendChild(item);
      });
    }

    function loadTop() {
      request("GET", "/api/public/boards/" + encodeURIComponent(board.slug) + "/posts?sort=votes&limit=5")
        .then(function (json) {
          renderTop((json && json.data) || []);
        })
        .catch(function () {
          list.textContent = "";
          list.appendChild(element("li", {}, "Top requests could not be loaded."));
        });
    }

    function toggle(open) {
      panel.hidden = !open;
      launcher.setAttribute("aria-expanded", String(open));
      if (open) {
        // Opened again later, the panel starts afresh: the last request's "Thank you" or error is past.
        status.className = "status";
        status.textContent = "";
        loadTop();
        shadow.getElementById("fb-title-input").focus();
      } else {
        launcher.focus();
      }
    }
    launcher.addEventListener("click", function () {
      toggle(panel.hidden);
    });
    close.addEventListener("click", function () {
      toggle(false);
    });
    // Escape closes the open panel only from inside the widget (its panel or its launcher, both in the shadow
    // root, whose keys reach this listener and no other page's): on the host page Escape is the host's, and
    // the focus is never taken from it. A key the host page has claimed (preventDefault) is left alone.
    root.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !event.defaultPrevented && !panel.hidden) toggle(false);
    });

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var title = shadow.getElementById("fb-title-input");
      // The browser's own check lets a title of spaces through.
      if (title.value.trim() === "") {
        status.className = "status error";
        status.textContent = "Please fill in \u201c" + labelOf("title") + "\u201d.";
        title.focus();
        return;
      }
      var body = { projectSlug: board.slug };
      Array.prototype.forEach.call(form.elements, function (field) {
        if (field.name && field.value.trim() !== "") body[field.name] = field.value.trim();
      });
      send.disabled = true;
      status.className = "status";
      status.textContent = "Sending…";
      request("POST", "/api/public/posts", body)
        .then(function () {
          form.reset();
          status.textContent = "Thank you! The team will review your request.";
        })
        .then(
          function () {
            return null;
          },
          function (error) {
            status.className = "status error";
            status.textContent = visitorMessage(error, labelOf);
            return error instanceof ApiRefusal ? error.field : null;
          },
        )
        .then(function (refused) {
          send.disabled = false;
          // Disabling the button while sending took focus away: keep it in the panel, on the field the
          // board refused if it named one.
          var field =
            (refused && form.elements.namedItem(refused)) || shadow.getElementById("fb-title-input");
          if (!panel.hidden) field.focus();
        });
    });
  }

  function warn(message) {
    if (window.console) console.warn("featureboard widget: " + message);
  }

  /**
   * A key that cannot work is explained to whoever installs the widget, in the console, before anything is
   * sent: a secret key is never sent from a page, and it must be revoked, since the page has published it.
   */
  function keyProblem() {
    if (key.trim() === "")
      return (
        'the <script> tag needs data-key="pk_…", the board\'s publishable key (API keys screen of the ' +
        "dashboard, or `featureboard keys create --project SLUG --kind publishable`)."
      );
    if (key.trim().indexOf(KEY_PREFIX.secret) === 0)
      return (
        "data-key holds a SECRET key (sk_…). It is now public: anyone who opens this page can read it and " +
        "use the whole API of your board. Revoke it now (API keys screen of the dashboard, or " +
        "`featureboard keys revoke` with this key), replace it where your servers use it, and give the " +
        "widget the publishable key (pk_…) instead."
      );
    return null;
  }

  function start() {
    var problem = keyProblem();
    if (problem) return warn(problem);
    request("GET", "/api/public/widget", undefined, { "X-Publishable-Key": key })
      .then(function (json) {
        // A page that includes the script twice gets one launcher.
        if (document.querySelector("[data-featureboard-widget]")) return;
        mount(json.data);
      })
      .catch(function (error) {
        warn(error.message);
      });
  }
  if (document.body) start();
  else document.addEventListener("DOMContentLoaded", start);
})();
