// featureboard board pages: voting, commenting and submitting through the public API. The pages are
// complete without this script (for reading); it only enables the controls that write.
(function () {
  "use strict";
  var board = document.body.getAttribute("data-board");
  if (!board) return;
  var api = "/api/public";
  var memory = {};

  // @include visitor-messages.client.js

  function load(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return memory[key] || null;
    }
  }
  function save(key, value) {
    memory[key] = value;
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage refused (private mode): the in-memory copy lasts for this page.
    }
  }

  /** One id per browser, kept across visits, so a visitor's vote is counted once and can be taken back. */
  function anonymousId() {
    var id = load("featureboard:anonymousId");
    if (!id) {
      id =
        "anon_" +
        (window.crypto && crypto.randomUUID
          ? crypto.randomUUID()
          : String(Math.random()).slice(2) + Date.now());
      save("featureboard:anonymousId", id);
    }
    return id;
  }

  var votesKey = "featureboard:votes:" + board;
  function votedPosts() {
    try {
      return JSON.parse(load(votesKey) || "[]");
    } catch {
      return [];
    }
  }
  function rememberVote(postId, voted) {
    var list = votedPosts().filter(function (id) {
      return id !== postId;
    });
    if (voted) list.push(postId);
    votesShown = JSON.stringify(list);
    save(votesKey, votesShown);
  }

  // Pages are sent no-store, so Back asks the server again (docs/web.md). A browser may still keep a page
  // whole for Back and Forward (its back/forward cache), script and all: shown again that way after this
  // browser voted on another page, it would show the old counts, so it is loaded afresh.
  var votesShown = load(votesKey);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && load(votesKey) !== votesShown) window.location.reload();
  });

  function send(method, path, body) {
    return fetch(api + path, {
      method: method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then(readAnswer, noAnswer);
  }

  /** A line at the foot of the window that says what went wrong with a vote (announced by screen readers). */
  var notice = null;
  var noticeTimer = null;
  function announce(message) {
    if (!notice) {
      notice = document.createElement("p");
      notice.className = "board-notice";
      notice.setAttribute("role", "status");
      notice.setAttribute("aria-live", "polite");
      document.body.appendChild(notice);
    }
    notice.textContent = message;
    notice.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () {
      notice.hidden = true;
    }, 8000);
  }

  function boardPath(rest) {
    return "/boards/" + encodeURIComponent(board) + rest;
  }

  /**
   * What a vote did, for screen readers: a polite live region, present before it is written to so that it
   * is announced, and kept off screen (the button itself shows the new count).
   */
  var voteResult = null;
  function announceVote(voted, count) {
    voteResult.textContent = (voted ? "Vote counted: " : "Vote removed: ") + plural(count, "vote");
  }

  function setupVoting() {
    var voted = votedPosts();
    var buttons = document.querySelectorAll("button.vote[data-post]");
    if (buttons.length > 0) {
      voteResult = document.createElement("p");
      voteResult.className = "sr-only";
      voteResult.setAttribute("role", "status");
      voteResult.setAttribute("aria-live", "polite");
      document.body.appendChild(voteResult);
    }
    Array.prototype.forEach.call(buttons, function (button) {
      var postId = button.getAttribute("data-post");
      button.setAttribute("aria-pressed", voted.indexOf(postId) >= 0 ? "true" : "false");
      button.disabled = false;
      // While a vote is on its way the button says so (aria-disabled) and ignores clicks, but it is not
      // disabled: a disabled button loses the keyboard focus, and the next Enter would go nowhere.
      var pending = false;
      button.addEventListener("click", function () {
        if (pending) return;
        pending = true;
        button.setAttribute("aria-disabled", "true");
        var wasVoted = button.getAttribute("aria-pressed") === "true";
        send(wasVoted ? "DELETE" : "POST", boardPath("/posts/" + encodeURIComponent(postId) + "/vote"), {
          anonymousId: anonymousId(),
        })
          .then(function (json) {
            var count = json.data.voteCount;
            button.querySelector(".count").textContent = String(count);
            button.querySelector(".count-words").textContent = plural(count, "vote");
            button.setAttribute("aria-pressed", wasVoted ? "false" : "true");
            rememberVote(postId, !wasVoted);
            announceVote(!wasVoted, count);
          })
          .catch(function (error) {
            announce(visitorMessage(error, null));
          })
          .then(function () {
            pending = false;
            button.removeAttribute("aria-disabled");
          });
      });
    });
  }

  function fieldsOf(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (element) {
      if (!element.name) return;
      var value = element.value.trim();
      if (value !== "") values[element.name] = value;
    });
    return values;
  }

  function labelFor(form, name) {
    var element = form.elements.namedItem(name);
    return element && element.id ? labelText(form.querySelector('label[for="' + element.id + '"]')) : null;
  }

  /** A required field left with nothing but spaces (the browser's own check lets those through). */
  function blankRequired(form) {
    return Array.prototype.filter.call(form.elements, function (element) {
      return element.required && element.value.trim() === "";
    })[0];
  }

  function report(form, message, isError) {
    var status = form.querySelector(".form-status");
    status.textContent = message;
    status.className = "form-status" + (isError ? " error" : "");
  }

  var DATE_FORMAT = new Intl.DateTimeFormat("en", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

  /**
   * Shows a new comment at the end of the list when this page is the last page of comments; otherwise it
   * sits on the last page, which the answer links to. Returns whether it was shown here.
   */
  function appendComment(comment) {
    var list = document.querySelector(".comment-list");
    var counter = document.querySelector(".comment-count");
    // The list may show one page of many: the total is the one the page was rendered with, plus this one.
    if (counter)
      counter.textContent = "(" + ((parseInt(counter.textContent.replace(/\D/g, ""), 10) || 0) + 1) + ")";
    if (list.getAttribute("data-last-page") === "false") return false;
    var item = document.createElement("li");
    item.className = "comment";
    var meta = document.createElement("p");
    meta.className = "meta";
    // Written by people, in any script: each takes its direction from its own text (docs/web.md).
    var author = document.createElement("strong");
    author.setAttribute("dir", "auto");
    author.textContent = comment.authorName || "Anonymous";
    meta.appendChild(author);
    // The same date the server renders (src/web/pages.ts), so the new comment reads like the others.
    var time = document.createElement("time");
    time.setAttribute("datetime", comment.createdAt);
    time.textContent = DATE_FORMAT.format(new Date(comment.createdAt));
    meta.appendChild(document.createTextNode(" "));
    meta.appendChild(time);
    var body = document.createElement("p");
    body.className = "comment-body";
    body.setAttribute("dir", "auto");
    body.textContent = comment.body;
    item.appendChild(meta);
    item.appendChild(body);
    list.appendChild(item);
    var empty = document.querySelector(".no-comments");
    if (empty) empty.remove();
    return true;
  }

  var handlers = {
    submit: function (form, fields) {
      fields.projectSlug = board;
      return send("POST", "/posts", fields).then(function () {
        form.reset();
        report(
          form,
          "Thank you! Your request will appear on the board once the team has reviewed it.",
          false,
        );
      });
    },
    comment: function (form, fields) {
      fields.anonymousId = anonymousId();
      var postId = form.getAttribute("data-post");
      return send("POST", boardPath("/posts/" + encodeURIComponent(postId) + "/comments"), fields).then(
        function (json) {
          form.reset();
          if (appendComment((json && json.data) || fields)) report(form, "Comment posted.", false);
          else {
            report(form, "Comment posted: it is on the last page of comments. ", false);
            var link = document.createElement("a");
            link.href = document.querySelector(".comment-list").getAttribute("data-last-page-url");
            link.textContent = "See it there";
            form.querySelector(".form-status").appendChild(link);
          }
        },
      );
    },
  };

  function setupForms() {
    var forms = document.querySelectorAll("form[data-form]");
    Array.prototype.forEach.call(forms, function (form) {
      var handle = handlers[form.getAttribute("data-form")];
      if (!handle) return;
      var fieldset = form.querySelector("fieldset");
      fieldset.disabled = false;
      // The browser refused a field (an email without @, an empty box): an earlier answer no longer applies.
      form.addEventListener(
        "invalid",
        function () {
          report(form, "", false);
        },
        true,
      );
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var blank = blankRequired(form);
        if (blank) {
          report(form, "Please fill in \u201c" + labelFor(form, blank.name) + "\u201d.", true);
          blank.focus();
          return;
        }
        fieldset.disabled = true;
        report(form, "Sending…", false);
        handle(form, fieldsOf(form))
          .then(
            function () {
              return null;
            },
            function (error) {
              report(
                form,
                visitorMessage(error, function (name) {
                  return labelFor(form, name);
                }),
                true,
              );
              return error instanceof ApiRefusal ? error.field : null;
            },
          )
          .then(function (refused) {
            fieldset.disabled = false;
            // Disabling the fieldset while sending took focus away: bring it back to the form, to the field
            // the board refused when it named one.
            var field =
              (refused && form.elements.namedItem(refused)) || form.querySelector("input, textarea");
            field.focus();
          });
      });
    });
  }

  setupVoting();
  setupForms();
  Array.prototype.forEach.call(document.querySelectorAll(".script-note"), function (note) {
    note.remove();
  });
})();
