/// `blurlabel edit`'s page: plain HTML, CSS and JavaScript, no framework, nothing fetched but
/// this server's own routes (the token is the page's own path). Rectangles are kept in the
/// picture's pixels; the picture is scaled to fit and every pointer position is mapped back
/// through the shown picture's box. Previews are rendered by the server (the engine), one
/// request at a time: changes made while one is on its way are sent together when it returns.
enum EditPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>blurlabel edit</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 0; padding: 8px; background: #f4f4f4; color: #111; }
        #toolbar { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; margin-bottom: 8px; }
        button, select, input { font: inherit; }
        :focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
        #stage { position: relative; display: inline-block; line-height: 0; user-select: none; }
        #picture { max-width: calc(100vw - 24px); max-height: calc(100vh - 190px); display: block; }
        #overlay { position: absolute; inset: 0; cursor: crosshair; touch-action: none; }
        .rect { position: absolute; box-sizing: border-box; border: 2px dashed #0b57d0; cursor: move; }
        .rect.selected { border: 2px solid #d93025; background: rgba(217, 48, 37, 0.08); }
        .effective { position: absolute; box-sizing: border-box; border: 1px dotted #0b57d0; pointer-events: none; }
        .rect:focus-visible { outline: 3px solid #fbbc04; outline-offset: 1px; }
        .handle { position: absolute; width: 10px; height: 10px; background: #fff; border: 2px solid #d93025;
          box-sizing: border-box; display: none; }
        .rect.selected .handle { display: block; }
        .nw { left: -6px; top: -6px; cursor: nwse-resize; } .se { right: -6px; bottom: -6px; cursor: nwse-resize; }
        .ne { right: -6px; top: -6px; cursor: nesw-resize; } .sw { left: -6px; bottom: -6px; cursor: nesw-resize; }
        #command { font: 12px ui-monospace, monospace; white-space: pre-wrap; word-break: break-all;
          background: #fff; border: 1px solid #ccc; padding: 6px; margin: 6px 0; }
        #status { min-height: 1.2em; }
        </style>
        </head>
        <body>
        <div id="toolbar" role="toolbar" aria-label="Rectangles">
          <button id="undo" type="button" aria-label="Undo">Undo</button>
          <button id="redo" type="button" aria-label="Redo">Redo</button>
          <button id="remove" type="button" aria-label="Delete the selected rectangle">Delete</button>
          <label>New rectangles: <select id="defaultMode" aria-label="Default mode">
            <option>secure</option><option>fill</option><option>blur</option><option>pixelate</option></select></label>
          <label>Selected: <select id="rectMode" aria-label="Mode of the selected rectangle" disabled>
            <option>secure</option><option>fill</option><option>blur</option><option>pixelate</option></select></label>
          <label>σ <input id="radius" type="number" min="0" max="250" step="0.5" size="4" aria-label="Blur sigma"></label>
          <label>block <input id="block" type="number" min="2" max="4096" step="1" value="12" size="4" aria-label="Pixelate block size"></label>
          <label>fill <input id="color" type="color" value="#000000" aria-label="Fill colour"></label>
          <button id="save" type="button" aria-label="Save">Save</button>
          <button id="done" type="button" aria-label="Done">Done</button>
        </div>
        <div id="stage"><canvas id="picture" role="img" aria-label="The picture, with the rectangles' redaction previewed"></canvas><div id="overlay"></div></div>
        <p id="status" role="status" aria-live="polite"></p>
        <div id="command" aria-label="The same as a command line"></div>
        <script>
        "use strict";
        const base = location.pathname;  // "/TOKEN/"
        const $ = (id) => document.getElementById(id);
        const picture = $("picture"), overlay = $("overlay");
        let W = 1, H = 1, info = null;
        let rects = [];          // {x, y, width, height, mode}, in the picture's pixels
        let selected = -1;
        let undoStack = [], redoStack = [];
        let gesture = null;      // the drag under way
        // Previews sent, drawn, and on screen (the frame after they were drawn), and each one's
        // time from its request to that frame.
        const stats = { latencies: [], shown: 0, sent: 0, painted: 0 };
        window.editStats = stats;

        function snapshot() { return JSON.stringify(rects); }
        function commit(before) {
          if (before !== snapshot()) { undoStack.push(before); redoStack = []; }
          changed();
        }
        function clamp(v, lo, hi) { return Math.min(Math.max(v, lo), hi); }
        // Pointer position to picture pixels, through the shown picture's box (scaled to fit).
        function toPixels(event) {
          const box = picture.getBoundingClientRect();
          return { x: clamp(Math.round((event.clientX - box.left) * W / box.width), 0, W),
                   y: clamp(Math.round((event.clientY - box.top) * H / box.height), 0, H) };
        }
        // Two corners, in any order (a drag up-left too), to a rectangle.
        function spanning(a, b, mode) {
          return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y), mode };
        }
        function shellQuote(text) { return /^[A-Za-z0-9_.\/,:=+-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'"; }
        // The options of `blurlabel redact` for what is drawn: what the server renders and the page shows.
        function redactArguments(list) {
          const args = ["--mode", $("defaultMode").value, "--radius", String(Number($("radius").value) || 0),
                        "--block", String(Math.max(2, Math.round(Number($("block").value) || 12))), "--color", $("color").value];
          for (const r of list) args.push("--rect", `${r.x},${r.y},${r.width},${r.height}:${r.mode}`);
          return args;
        }
        function currentList() { return rects.filter(r => r.width > 0 && r.height > 0); }
        // Secure and blur rectangles change a margin around them too (redact --margin): the box they cover.
        function effective(r) {
          const m = (r.mode === "secure" || r.mode === "blur") ? (info.margin || 0) : 0;
          return { x: r.x - m, y: r.y - m, width: r.width + 2 * m, height: r.height + 2 * m, margin: m };
        }
        function describe(r, i) {
          const e = effective(r), grown = e.margin > 0 ? `; with its ${e.margin} pixel margin it covers ${e.x},${e.y}, ${e.width} by ${e.height}` : "";
          return `Rectangle ${i + 1}: ${r.mode}, at ${r.x},${r.y}, ${r.width} by ${r.height} pixels${grown}`;
        }

        function draw() {
          overlay.replaceChildren();
          rects.forEach((r, i) => {
            const e = effective(r);
            if (e.margin > 0 && r.width > 0 && r.height > 0) {
              const shown = document.createElement("div");
              shown.className = "effective";
              shown.style.left = (100 * e.x / W) + "%"; shown.style.top = (100 * e.y / H) + "%";
              shown.style.width = (100 * e.width / W) + "%"; shown.style.height = (100 * e.height / H) + "%";
              overlay.appendChild(shown);
            }
            const box = document.createElement("div");
            box.className = "rect" + (i === selected ? " selected" : "");
            box.tabIndex = 0;
            box.setAttribute("role", "button");
            box.setAttribute("aria-label", describe(r, i));
            box.dataset.index = i;
            box.style.left = (100 * r.x / W) + "%"; box.style.top = (100 * r.y / H) + "%";
            box.style.width = (100 * r.width / W) + "%"; box.style.height = (100 * r.height / H) + "%";
            for (const corner of ["nw", "ne", "sw", "se"]) {
              const handle = document.createElement("div");
              handle.className = "handle " + corner; handle.dataset.corner = corner;
              box.appendChild(handle);
            }
            box.addEventListener("focus", () => { if (selected !== i) { selected = i; refreshControls(); restyle(); } });
            box.addEventListener("keydown", keyOnRect);
            overlay.appendChild(box);
          });
        }
        function restyle() {
          overlay.querySelectorAll(".rect").forEach((box) => box.classList.toggle("selected", Number(box.dataset.index) === selected));
        }
        function refreshControls() {
          const menu = $("rectMode");
          menu.disabled = selected < 0;
          if (selected >= 0) menu.value = rects[selected].mode;
          $("undo").disabled = undoStack.length === 0;
          $("redo").disabled = redoStack.length === 0;
          $("remove").disabled = selected < 0;
          const list = currentList();
          $("command").textContent = list.length === 0 ? "(draw a rectangle: press on the picture and drag)" :
            ["blurlabel", "redact", info.input].concat(redactArguments(list), ["-o", info.output]).map(shellQuote).join(" ");
        }
        function changed() {
          if (selected >= rects.length) selected = rects.length - 1;
          draw(); refreshControls(); schedulePreview();
        }

        // Previews: one request at a time; what changes meanwhile goes in the next one. The server
        // answers with the redacted picture's parts under the rectangles (stacked in one PNG, their
        // places in X-Regions); the canvas keeps the original and gets those parts drawn over it,
        // after the previous preview's parts are put back to the original.
        let inFlight = false, dirty = false, original = null, shownRegions = [];
        const context = picture.getContext("2d");
        function schedulePreview() { dirty = true; if (!inFlight) sendPreview(); }
        function parseRegions(text) {
          return (text || "").split(";").filter(Boolean).map(part => part.split(",").map(Number));
        }
        async function sendPreview() {
          dirty = false; inFlight = true;
          const list = currentList();
          const started = performance.now();
          stats.sent++;
          try {
            let patches = null, regions = [];
            if (list.length > 0) {
              const response = await fetch(base + "preview", { method: "POST", body: redactArguments(list).join("\n") });
              if (!response.ok) throw new Error((await response.text()).trim());
              regions = parseRegions(response.headers.get("X-Regions"));
              patches = await createImageBitmap(await response.blob());
            }
            context.imageSmoothingEnabled = false;
            for (const [x, y, w, h] of shownRegions) {
              context.clearRect(x, y, w, h); context.drawImage(original, x, y, w, h, x, y, w, h);
            }
            let top = 0;
            for (const [x, y, w, h] of regions) {
              context.clearRect(x, y, w, h); context.drawImage(patches, 0, top, w, h, x, y, w, h);
              top += h;
            }
            if (patches) patches.close();
            shownRegions = regions;
            const shown = ++stats.shown;
            requestAnimationFrame(() => { stats.latencies.push(performance.now() - started); stats.painted = shown; });
          } catch (error) { say("preview failed: " + error.message); }
          inFlight = false;
          if (dirty) sendPreview();
        }
        window.previewSettled = () => !inFlight && !dirty && stats.painted === stats.shown;
        function say(text) { $("status").textContent = text; }

        // Pointer: press on the picture draws, inside a rectangle moves, on a handle resizes.
        overlay.addEventListener("pointerdown", (event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          const p = toPixels(event);
          const box = event.target.closest(".rect");
          const before = snapshot();
          if (box) {
            const i = Number(box.dataset.index);
            selected = i;
            const r = rects[i];
            const corner = event.target.dataset.corner;
            if (corner) {
              const fixed = { x: corner.includes("w") ? r.x + r.width : r.x, y: corner.includes("n") ? r.y + r.height : r.y };
              gesture = { kind: "resize", index: i, fixed, before };
            } else {
              gesture = { kind: "move", index: i, start: p, origin: { x: r.x, y: r.y }, before };
            }
          } else {
            rects.push({ x: p.x, y: p.y, width: 0, height: 0, mode: $("defaultMode").value });
            selected = rects.length - 1;
            gesture = { kind: "draw", index: selected, start: p, before };
          }
          overlay.setPointerCapture(event.pointerId);
          draw(); refreshControls();
        });
        overlay.addEventListener("pointermove", (event) => {
          if (!gesture) return;
          const p = toPixels(event);
          const r = rects[gesture.index];
          if (gesture.kind === "draw") Object.assign(r, spanning(gesture.start, p, r.mode));
          else if (gesture.kind === "resize") Object.assign(r, spanning(gesture.fixed, p, r.mode));
          else {
            r.x = clamp(gesture.origin.x + p.x - gesture.start.x, 0, W - r.width);
            r.y = clamp(gesture.origin.y + p.y - gesture.start.y, 0, H - r.height);
          }
          draw(); refreshControls(); schedulePreview();
        });
        function endGesture() {
          if (!gesture) return;
          const g = gesture; gesture = null;
          const r = rects[g.index];
          if (r.width === 0 || r.height === 0) {
            if (g.kind === "draw") { rects.splice(g.index, 1); selected = -1; }
            else { rects = JSON.parse(g.before); }
          }
          commit(g.before);
          const box = overlay.querySelector(`.rect[data-index="${selected}"]`);
          if (box) box.focus({ preventScroll: true });
        }
        overlay.addEventListener("pointerup", endGesture);
        overlay.addEventListener("pointercancel", endGesture);

        function keyOnRect(event) {
          const i = Number(event.currentTarget.dataset.index);
          const r = rects[i];
          const step = event.shiftKey ? 10 : 1;
          const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
          const before = snapshot();
          if (moves[event.key]) {
            event.preventDefault();
            r.x = clamp(r.x + moves[event.key][0], 0, W - r.width);
            r.y = clamp(r.y + moves[event.key][1], 0, H - r.height);
            selected = i; commit(before);
            overlay.querySelector(`.rect[data-index="${i}"]`).focus();
          } else if (event.key === "Delete" || event.key === "Backspace") {
            event.preventDefault();
            removeSelected();
          }
        }
        function removeSelected() {
          if (selected < 0) return;
          const before = snapshot();
          rects.splice(selected, 1); selected = Math.min(selected, rects.length - 1);
          commit(before);
          const box = overlay.querySelector(`.rect[data-index="${selected}"]`);
          if (box) box.focus(); else $("undo").focus();
        }
        function undo() {
          if (!undoStack.length) return;
          redoStack.push(snapshot()); rects = JSON.parse(undoStack.pop()); changed();
        }
        function redo() {
          if (!redoStack.length) return;
          undoStack.push(snapshot()); rects = JSON.parse(redoStack.pop()); changed();
        }
        document.addEventListener("keydown", (event) => {
          const mod = event.ctrlKey || event.metaKey;
          if (mod && event.key.toLowerCase() === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
          else if (mod && (event.key.toLowerCase() === "y" || (event.key.toLowerCase() === "z" && event.shiftKey))) { event.preventDefault(); redo(); }
        });
        $("undo").addEventListener("click", undo);
        $("redo").addEventListener("click", redo);
        $("remove").addEventListener("click", removeSelected);
        $("rectMode").addEventListener("change", () => {
          if (selected < 0) return;
          const before = snapshot(); rects[selected].mode = $("rectMode").value; commit(before);
        });
        // "input": while a number is typed or a colour picked, not only when the field is left.
        for (const id of ["defaultMode", "radius", "block", "color"]) $(id).addEventListener("input", changed);

        function rectsDocument() {
          return JSON.stringify({ mode: $("defaultMode").value, radius: Number($("radius").value) || 0,
            block: Number($("block").value) || 12, color: $("color").value,
            rects: currentList().map(r => ({ x: r.x, y: r.y, width: r.width, height: r.height, mode: r.mode })) }, null, 1) + "\n";
        }
        $("save").addEventListener("click", async () => {
          const list = currentList();
          if (list.length === 0) { say("Nothing to save: draw a rectangle first."); return; }
          say("Saving…");
          const response = await fetch(base + "save", { method: "POST", body: redactArguments(list).join("\n") });
          let text = (await response.text()).trim();
          if (response.ok && info.rectsFile) {
            const saved = await fetch(base + "rects", { method: "POST", body: rectsDocument() });
            text += "; " + (await saved.text()).trim();
          }
          say(response.ok ? text.replace(/^saved /, "Saved to ") : "Not saved: " + text);
        });
        $("done").addEventListener("click", async () => {
          const response = await fetch(base + "done", { method: "POST" });
          say(await response.text());
          document.querySelectorAll("button, select, input").forEach(c => c.disabled = true);
        });

        (async () => {
          info = await (await fetch(base + "state")).json();
          W = info.width; H = info.height;
          $("defaultMode").value = info.mode; $("radius").value = info.radius;
          if (info.rectsText) {
            try {
              const saved = JSON.parse(info.rectsText);
              if (saved.mode) $("defaultMode").value = saved.mode;
              if (typeof saved.radius === "number") $("radius").value = saved.radius;
              if (typeof saved.block === "number") $("block").value = saved.block;
              if (typeof saved.color === "string" && /^#[0-9a-f]{6}$/i.test(saved.color)) $("color").value = saved.color;
              for (const r of saved.rects || []) {
                const x = clamp(Math.round(r.x), 0, W), y = clamp(Math.round(r.y), 0, H);
                const rect = { x, y, width: clamp(Math.round(r.width), 0, W - x), height: clamp(Math.round(r.height), 0, H - y),
                  mode: ["blur", "pixelate", "fill", "secure"].includes(r.mode) ? r.mode : $("defaultMode").value };
                if (rect.width > 0 && rect.height > 0) rects.push(rect);
              }
              say(`Loaded ${rects.length} rectangle(s) from ${info.rectsFile}.`);
            } catch (error) { say(`${info.rectsFile} is not a rectangle set: ${error}`); }
          }
          picture.setAttribute("aria-label", `${info.input}, ${W} by ${H} pixels, with the rectangles' redaction previewed`);
          original = await createImageBitmap(await (await fetch(base + "original.png")).blob());
          picture.width = W; picture.height = H;
          context.drawImage(original, 0, 0);
          changed();
        })();
        </script>
        </body>
        </html>
        """#
}
