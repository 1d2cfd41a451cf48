// The dashboard's only script, on every page, and an enhancement: every action it speeds up is a plain
// form that works without it. Actions that cannot be taken back ask first; roadmap cards drag between
// columns (the drop submits the card's own "Move to" form); the release editor previews its markdown as it
// is typed.
(function () {
  "use strict";

  function roadmap() {
    var board = document.querySelector("[data-roadmap]");
    if (!board) return;
    var dragged = null;
    board.addEventListener("dragstart", function (event) {
      var card = event.target.closest && event.target.closest("[data-post-id]");
      if (!card) return;
      dragged = card;
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", card.getAttribute("data-post-id"));
    });
    board.querySelectorAll("[data-column]").forEach(function (column) {
      column.addEventListener("dragover", function (event) {
        if (!dragged) return;
        event.preventDefault();
        column.classList.add("drop-target");
      });
      column.addEventListener("dragleave", function () {
        column.classList.remove("drop-target");
      });
      column.addEventListener("drop", function (event) {
        event.preventDefault();
        column.classList.remove("drop-target");
        if (!dragged) return;
        var status = column.getAttribute("data-column");
        var form = dragged.querySelector("form[data-move]");
        dragged = null;
        if (!form || form.elements.status.value === status) return;
        form.elements.status.value = status;
        var notifyAll = document.querySelector("[data-notify-moves]");
        if (notifyAll && notifyAll.checked) form.elements.notify.checked = true;
        form.submit();
      });
    });
  }

  function preview() {
    var source = document.querySelector("[data-preview-source]");
    var target = document.querySelector("[data-preview]");
    if (!source || !target) return;
    var form = source.form;
    var timer = null;
    function render() {
      var body = new URLSearchParams();
      body.set("csrf", form.elements.csrf.value);
      body.set("project", form.elements.project.value);
      body.set("content", source.value);
      fetch("/admin/releases/preview", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: body.toString(),
        credentials: "same-origin",
      })
        .then(function (response) {
          return response.ok ? response.text() : "";
        })
        .then(function (markup) {
          target.innerHTML = markup;
        })
        .catch(function () {});
    }
    source.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(render, 250);
    });
    render();
  }

  // Analytics: one uPlot chart of the period's series per UTC day, from the JSON the page carries.
  function charts() {
    var holder = document.querySelector("[data-chart]");
    var source = document.getElementById("analytics-data");
    if (!holder || !source || !window.uPlot) return;
    var data = JSON.parse(source.textContent);
    var colours = ["#4338ca", "#b45309", "#047857", "#be185d"];
    var times = data.days.map(function (day) {
      return Date.parse(day + "T12:00:00Z") / 1000;
    });
    var options = {
      width: Math.max(320, holder.clientWidth - 32),
      height: 300,
      series: [{ label: "Day" }].concat(
        data.series.map(function (series, index) {
          return { label: series.label, stroke: colours[index % colours.length], width: 2 };
        }),
      ),
      // Whole UTC days on the time axis, and whole numbers on the counts axis.
      scales: { x: { time: true } },
      axes: [
        {
          space: 60,
          incrs: [86400, 2 * 86400, 7 * 86400, 14 * 86400, 30 * 86400],
          values: function (chart, ticks) {
            return ticks.map(function (tick) {
              return new Date(tick * 1000).toISOString().slice(5, 10);
            });
          },
        },
        { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, 10000] },
      ],
    };
    var values = [times].concat(
      data.series.map(function (series) {
        return series.values;
      }),
    );
    new window.uPlot(options, values, holder);
    holder.setAttribute("data-drawn", "true");
  }

  // Import progress: the job's real progress, read every 300 ms until it ends.
  /**
   * A job that ended while the page watched: why it stopped, and the skipped rows with their reasons, as
   * the page lists them when loaded (open when there are few). Text only, never markup.
   */
  function showOutcome(section, job) {
    if (job.failure && !section.querySelector("[data-import-failure]")) {
      var failure = document.createElement("p");
      failure.setAttribute("role", "alert");
      failure.setAttribute("data-import-failure", "");
      failure.textContent = "The import stopped: " + job.failure;
      section.appendChild(failure);
    }
    // Worded by the server (skippedRowLine, settings-pages.ts), as the page lists them on a reload.
    var errors = job.skippedRows || [];
    if (errors.length === 0 || section.querySelector("[data-skipped]")) return;
    var details = document.createElement("details");
    details.setAttribute("data-skipped", "");
    details.open = errors.length <= Number(section.getAttribute("data-open-up-to") || 0);
    var summary = document.createElement("summary");
    summary.textContent = "Skipped rows";
    var list = document.createElement("ul");
    errors.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    details.appendChild(summary);
    details.appendChild(list);
    section.appendChild(details);
  }

  function importProgress() {
    var section = document.querySelector("[data-import]");
    if (!section || section.getAttribute("data-state") !== "running") return;
    var id = section.getAttribute("data-import");
    var project = new URLSearchParams(window.location.search).get("project") || "";
    var bar = section.querySelector("progress");
    var status = section.querySelector("[data-import-status]");
    function poll() {
      fetch("/admin/import/" + id + "/progress?project=" + encodeURIComponent(project), {
        credentials: "same-origin",
      })
        .then(function (response) {
          return response.json();
        })
        .then(function (job) {
          var percent = job.total > 0 ? Math.floor((job.done / job.total) * 100) : 0;
          bar.max = job.total;
          bar.value = job.done;
          var line =
            percent +
            "% · " +
            job.done +
            " of " +
            job.total +
            " rows · " +
            job.imported +
            " imported, " +
            job.skipped +
            " skipped" +
            // As the page words it (settings-pages.ts): rows whose id was imported before.
            (job.alreadyImported ? " (" + job.alreadyImported + " already imported)" : "") +
            " · " +
            job.state;
          // The line is a live region (settings-pages.ts): rewritten only when its words change, so a
          // screen reader is not handed the same words again every 300 ms.
          if (status.textContent !== line) status.textContent = line;
          section.setAttribute("data-state", job.state);
          if (job.state === "running") setTimeout(poll, 300);
          else showOutcome(section, job);
        })
        .catch(function () {
          setTimeout(poll, 1000);
        });
    }
    poll();
  }

  /**
   * Actions that cannot be taken back (revoke, remove, merge, publish…) ask first: the button's own
   * `data-confirm`, else its form's, else that of the option chosen in the form (closing requests from a
   * status select). Without the script they go through unasked, as plain forms.
   */
  function confirmations() {
    document.addEventListener(
      "submit",
      function (event) {
        var button = event.submitter;
        var form = event.target;
        var chosen = form.querySelector("option[data-confirm]:checked");
        var message =
          (button && button.getAttribute("data-confirm")) ||
          form.getAttribute("data-confirm") ||
          (chosen && chosen.getAttribute("data-confirm"));
        if (message && !window.confirm(message)) event.preventDefault();
      },
      true,
    );
  }

  /** A field whose change means "not the default" unticks the form's "use the default" box (`data-unticks`). */
  function choicesUntickDefaults() {
    document.querySelectorAll("[data-unticks]").forEach(function (field) {
      field.addEventListener("input", function () {
        var box = field.form && field.form.elements.namedItem(field.getAttribute("data-unticks"));
        if (box) box.checked = false;
      });
    });
  }

  /** "Back to the form" after a refused form: the browser's back keeps what was typed; the link reloads it. */
  function backToForm() {
    var link = document.querySelector("a[data-back]");
    if (!link || window.history.length < 2) return;
    link.addEventListener("click", function (event) {
      event.preventDefault();
      window.history.back();
    });
  }

  /**
   * Back, then Send again: dashboard pages are sent no-store, so Back renders them again with new `once`
   * ids while the browser brings back what was typed, and the form would make its change a second time.
   * The ids a page was first shown with are kept for its history entry (the Navigation API's entry key, in
   * sessionStorage); a page reached by Back or Forward sends each form with its first id, so the server
   * answers "already sent" (docs/dashboard.md). A reload or a new visit keeps the new ids. Neither the
   * hidden field nor history.state is touched: a field changed by a script is one the browser restores even
   * on a reload, and a replaced history state turns the reload of a form's answer into a GET of its action.
   */
  function formsKeepTheirFirstIds() {
    var navigation = window.navigation;
    if (!navigation || !navigation.currentEntry || !window.performance.getEntriesByType) return;
    var forms = Array.prototype.filter.call(document.forms, function (form) {
      var once = form.elements.namedItem("once");
      return Boolean(once) && once.type === "hidden";
    });
    if (forms.length === 0) return;
    // A form is known again by where it goes and its hidden fields (the request a merge goes into, the
    // screen it returns to), not by its place on the page: the inbox has one card fewer after an approval.
    var seen = {};
    function keyOf(form) {
      var hidden = Array.prototype.filter
        .call(form.elements, function (field) {
          return field.type === "hidden" && field.name !== "once" && field.name !== "csrf";
        })
        .map(function (field) {
          return field.name + "=" + field.value;
        });
      var key = (form.getAttribute("action") || "") + "?" + hidden.join("&");
      seen[key] = (seen[key] || 0) + 1;
      return key + "#" + seen[key];
    }
    var prefix = "featureboard.formIds.";
    var storageKey = prefix + navigation.currentEntry.key;
    var traversed = window.performance.getEntriesByType("navigation")[0];
    try {
      var first =
        traversed && traversed.type === "back_forward"
          ? JSON.parse(window.sessionStorage.getItem(storageKey) || "{}")
          : {};
      var ids = {};
      forms.forEach(function (form) {
        var key = keyOf(form);
        var id = first[key];
        ids[key] = id || form.elements.namedItem("once").value;
        if (!id) return;
        form.addEventListener("formdata", function (event) {
          event.formData.set("once", id);
        });
      });
      window.sessionStorage.setItem(storageKey, JSON.stringify(ids));
      // Entries no longer in this tab's history are forgotten.
      var live = {};
      navigation.entries().forEach(function (entry) {
        live[prefix + entry.key] = true;
      });
      Object.keys(window.sessionStorage).forEach(function (name) {
        if (name.indexOf(prefix) === 0 && !live[name]) window.sessionStorage.removeItem(name);
      });
    } catch {
      // Storage refused (a private window's quota): the forms keep the ids the page came with.
    }
  }

  formsKeepTheirFirstIds();
  confirmations();
  choicesUntickDefaults();
  backToForm();
  roadmap();
  preview();
  charts();
  importProgress();
})();
