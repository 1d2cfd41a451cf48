// How the board's and the widget's scripts read the public API's answers, and what a visitor reads when it
// refuses, by its error_code. Written once and included in board.js and widget.js where they say so
// (src/web/assets.ts): the API's own messages are written for developers ("Invalid 'body' in body: is
// required"), these for the people on the board.

/**
 * An error carrying the API's answer (`json`, may be null) and HTTP status (0: no answer at all); `field` is
 * the body field a refused call names ("Invalid 'email' in body: …"), or null: the form focuses it.
 */
function ApiRefusal(json, status) {
  this.json = json;
  this.status = status;
  this.message = (json && json.message) || "HTTP " + status;
  var named = json && json.error_code === "VALIDATION_ERROR" && /'([^']+)'/.exec(json.message || "");
  this.field = named ? named[1] : null;
}
ApiRefusal.prototype = Object.create(Error.prototype);

/** A public API answer's JSON body (null if none), or an ApiRefusal when it is not a success. */
function readAnswer(response) {
  return response.text().then(function (text) {
    var json;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!response.ok) throw new ApiRefusal(json, response.status);
    return json;
  });
}

/** A call that got no answer at all (offline, blocked): status 0. */
function noAnswer() {
  throw new ApiRefusal(null, 0);
}

/**
 * The sentence to show for a failed call. `labelOf(field)` names a form field as the visitor sees it
 * (its label), or returns null.
 */
function visitorMessage(error, labelOf) {
  if (!(error instanceof ApiRefusal) || error.status === 0)
    return "The board could not be reached. Check your connection, then try again.";
  var json = error.json;
  var code = json && json.error_code;
  if (code === "RATE_LIMITED") return "That was a lot at once. Please wait a minute, then try again.";
  if (code === "POST_NOT_FOUND")
    return "This request is no longer open for votes and comments. Reload the page to see where it stands.";
  if (code === "BOARD_NOT_PUBLIC" || code === "PROJECT_NOT_FOUND")
    return "This board is not open to the public any more.";
  if (code === "VALIDATION_ERROR") {
    var text = json.message || "";
    var field = error.field;
    var problem = text.indexOf(": ") >= 0 ? text.slice(text.indexOf(": ") + 2) : "";
    var label = field && labelOf ? labelOf(field) : null;
    if (label && problem) return "Please check \u201c" + label + "\u201d: it " + problem + ".";
    return "Please check what you wrote" + (problem ? ": it " + problem : "") + ".";
  }
  if (!code || error.status >= 500) return "Something went wrong on our side. Please try again in a moment.";
  return json.message;
}

/** The label a form shows for `element`, without its "(optional …)" note. */
function labelText(label) {
  return label ? label.textContent.replace(/\s*\(.*\)\s*$/, "").trim() : null;
}
