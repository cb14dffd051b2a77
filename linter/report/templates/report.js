// The report's only script: tabs, pan and zoom, collapse and expand, search, details panel.
// Data comes from the JSON block and becomes DOM through textContent only, never as markup.
(function () {
  "use strict";
  var dataNode = document.getElementById("ksafe-data");
  var data = dataNode ? JSON.parse(dataNode.textContent) : {};

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }

  function setupTabs() {
    var tabs = document.querySelectorAll(".tab[data-tab]");
    tabs.forEach(function (tab) {
      tab.addEventListener("click", function () {
        var which = tab.getAttribute("data-tab");
        tabs.forEach(function (t) { t.classList.toggle("active", t === tab); });
        document.querySelectorAll(".diagram-set").forEach(function (set) {
          set.classList.toggle("split", which === "split");
        });
        document.querySelectorAll(".diagram").forEach(function (d) {
          var on = which === "split" || d.getAttribute("data-side") === which;
          d.classList.toggle("active", on);
          if (on && d.ksafeFit) { d.ksafeFit(); }
        });
      });
    });
  }

  function setupDiagram(root) {
    var side = root.getAttribute("data-side");
    var info = data[side] || {};
    var svg = root.querySelector("svg.graph");
    var world = svg.querySelector(".world");
    var panel = root.querySelector(".details");
    var width = 1;
    var height = 1;
    var view = { x: 0, y: 0, k: 1 };

    function apply() {
      world.setAttribute("transform", "translate(" + view.x.toFixed(1) + "," + view.y.toFixed(1) + ") scale(" + view.k.toFixed(4) + ")");
      svg.setAttribute("data-zoom", view.k.toFixed(4));
    }
    // Fit the whole graph; unless that makes it unreadable (a big topology), then fit its width
    // (at most 1:1) and start at the top: the reader pans and searches from there.
    function fit(readable) {
      var r = svg.getBoundingClientRect();
      if (!r.width || !r.height) { return; }
      view.k = Math.min(r.width / (width + 40), r.height / (height + 40), 1.2);
      if (readable && view.k < 0.45) {
        view.k = Math.max(0.45, Math.min(1, r.width / (width + 40)));
      }
      view.x = (r.width - width * view.k) / 2;
      view.y = Math.max(10, (r.height - height * view.k) / 2);
      if (height * view.k > r.height) { view.y = 10; }
      apply();
    }
    function zoomAt(factor, cx, cy) {
      var k = Math.min(8, Math.max(0.05, view.k * factor));
      view.x = cx - (cx - view.x) * (k / view.k);
      view.y = cy - (cy - view.y) * (k / view.k);
      view.k = k;
      apply();
    }
    root.ksafeFit = function () { fit(true); };

    svg.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var r = svg.getBoundingClientRect();
      zoomAt(ev.deltaY < 0 ? 1.15 : 1 / 1.15, ev.clientX - r.left, ev.clientY - r.top);
    }, { passive: false });
    var drag = null;
    svg.addEventListener("pointerdown", function (ev) {
      if (ev.target.closest(".toggle") || ev.target.closest(".node")) { return; }
      drag = { x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y };
      svg.classList.add("panning");
      svg.setPointerCapture(ev.pointerId);
    });
    svg.addEventListener("pointermove", function (ev) {
      if (!drag) { return; }
      view.x = drag.vx + ev.clientX - drag.x;
      view.y = drag.vy + ev.clientY - drag.y;
      apply();
    });
    function endDrag() { drag = null; svg.classList.remove("panning"); }
    svg.addEventListener("pointerup", endDrag);
    svg.addEventListener("pointercancel", endDrag);

    svg.querySelectorAll("path[data-cross]").forEach(function (p) {
      p.setAttribute("data-d", p.getAttribute("d"));
    });
    function setCollapsed(box, on) {
      var id = box.id;
      box.classList.toggle("collapsed", on);
      box.setAttribute("data-collapsed", on ? "1" : "0");
      box.querySelector(".frame").setAttribute("height", box.getAttribute(on ? "data-hc" : "data-h"));
      box.querySelector(".toggle text").textContent = on ? "+" : "\u2212";
      svg.querySelectorAll("[data-in=\"" + id + "\"]").forEach(function (e) {
        e.classList.toggle("hidden", on);
      });
    }
    var boxes = svg.querySelectorAll(".box");
    // With every box folded, boxes and topics move to the compact layout computed for that
    // case; otherwise folded boxes keep their place and edges go to their headers.
    function refresh() {
      var compact = boxes.length > 0;
      boxes.forEach(function (b) { if (b.getAttribute("data-collapsed") !== "1") { compact = false; } });
      svg.classList.toggle("compact", compact);
      svg.querySelectorAll("[data-dx]").forEach(function (e) {
        if (compact) {
          e.setAttribute("transform", "translate(" + e.getAttribute("data-dx") + "," + e.getAttribute("data-dy") + ")");
        } else {
          e.removeAttribute("transform");
        }
      });
      boxes.forEach(function (b) {
        b.querySelector(".frame").setAttribute("width", b.getAttribute(compact ? "data-cw" : "data-w"));
      });
      svg.querySelectorAll("path[data-cross]").forEach(function (p) {
        var box = document.getElementById(p.getAttribute("data-cross"));
        var folded = box && box.getAttribute("data-collapsed") === "1";
        p.setAttribute("d", p.getAttribute(compact ? "data-dk" : (folded ? "data-dc" : "data-d")));
      });
      width = parseFloat(svg.getAttribute(compact ? "data-cw" : "data-w")) || 1;
      height = parseFloat(svg.getAttribute(compact ? "data-ch" : "data-h")) || 1;
    }
    boxes.forEach(function (box) {
      if (box.getAttribute("data-collapsed") === "1") { setCollapsed(box, true); }
    });
    refresh();
    svg.querySelectorAll(".toggle").forEach(function (t) {
      function toggle(ev) {
        ev.stopPropagation();
        var box = t.closest(".box");
        setCollapsed(box, box.getAttribute("data-collapsed") !== "1");
        refresh();
      }
      t.addEventListener("click", toggle);
      t.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(ev); }
      });
    });

    function show(id) {
      var item = info[id];
      svg.querySelectorAll(".node.selected").forEach(function (n) { n.classList.remove("selected"); });
      var node = svg.getElementById ? svg.getElementById(id) : document.getElementById(id);
      if (node) { node.classList.add("selected"); }
      panel.replaceChildren();
      if (!item) { return; }
      panel.appendChild(el("div", item.kind, "rkind"));
      panel.appendChild(el("h4", item.name));
      if (item.status) {
        var st = el("p", item.status + (item.other ? (side === "after" ? " (was " : " (now ") + item.other + ")" : ""));
        panel.appendChild(st);
      }
      if (item.note) { panel.appendChild(el("p", item.note, "muted")); }
      if (item.internal && item.kind === "store") { panel.appendChild(el("p", "changelog: " + item.internal)); }
      if (item.internal && item.kind === "topic") { panel.appendChild(el("p", item.internal + " topic")); }
      if (item.details && item.details.length) {
        var ul = el("ul");
        item.details.forEach(function (d) { ul.appendChild(el("li", d)); });
        panel.appendChild(ul);
      }
      if (item.findings && item.findings.length) {
        var p = el("p", "Findings: ");
        item.findings.forEach(function (f) {
          var a = el("a", f[0], "ref");
          a.setAttribute("href", "#" + encodeURIComponent(f[1]));
          p.appendChild(a);
        });
        panel.appendChild(p);
      }
    }
    svg.querySelectorAll(".node").forEach(function (n) {
      n.addEventListener("click", function () { show(n.id); });
      n.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { show(n.id); } });
    });

    var search = root.querySelector(".search");
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      var any = false;
      svg.querySelectorAll(".node").forEach(function (n) {
        var item = info[n.id];
        var hit = q !== "" && !!item && item.name.toLowerCase().indexOf(q) >= 0;
        n.classList.toggle("match", hit);
        if (hit) {
          any = true;
          var boxId = n.getAttribute("data-in");
          var box = boxId ? document.getElementById(boxId) : null;
          if (box && box.getAttribute("data-collapsed") === "1") { setCollapsed(box, false); refresh(); }
        }
      });
      svg.classList.toggle("searching", q !== "");
      root.setAttribute("data-matches", any ? "1" : "0");
    });

    root.querySelectorAll(".toolbar [data-action]").forEach(function (b) {
      b.addEventListener("click", function () {
        var r = svg.getBoundingClientRect();
        var action = b.getAttribute("data-action");
        if (action === "zoom-in") { zoomAt(1.25, r.width / 2, r.height / 2); }
        if (action === "zoom-out") { zoomAt(0.8, r.width / 2, r.height / 2); }
        if (action === "fit") { fit(false); }
        if (action === "collapse-all" || action === "expand-all") {
          boxes.forEach(function (x) { setCollapsed(x, action === "collapse-all"); });
          refresh();
          fit(true);
        }
      });
    });
    apply();
    fit(true);
  }

  setupTabs();
  document.querySelectorAll(".diagram").forEach(setupDiagram);
})();
