#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol (--remote-debugging-pipe; Python's standard
library only) to check a glyphaudit HTML report in a real browser. Used by scripts/check-report.

    report-browser.py check INDEX.html --axe AXE.min.js [--screenshot PNG] [--json OUT.json] [--dom QUERY OUT.html]…
                      [--also INDEX2.html]
    report-browser.py tabs INDEX.html        (Tab presses to reach the Findings section)
    report-browser.py review INDEX.html [--tick GROUP_ID]… [--out CMD.txt] [--width PX] [--screenshot PNG] [--axe AXE.min.js]

`check`, at each of the widths 390, 1024, 1400 and 2560 CSS px:
  - the page does not scroll sideways (document.documentElement.scrollWidth <= innerWidth);
  - every contact-sheet picture is drawn at least at its @1x size (an @2x picture W px wide: >= W/2 CSS px);
  - no console error, uncaught exception or failed load;
and at 390, 1024 and 1400 px axe-core finds no violation of impact serious or critical. At 1400 px
the picture viewer is driven with the keyboard: Enter on a cell opens it with the render, Escape
closes it, and the focus is back on the cell. Each `--dom QUERY OUT.html` then loads the page at
1400 px with QUERY (e.g. `?dt=L`, or `""`) in the same browser and writes its DOM after its script
ran (as `chromium --dump-dom` would), for the tests to read. `--also INDEX2.html` then loads a second
page at each width and prints its layout failures as "also INDEX2.html: …" (not counted: the tests
use it to see a broken page caught). Exit 0 clean, 1 on a failure, 2 when it cannot run.

`review` loads the page (1400 px wide, or --width) and, in its snapshot review box, reads the command
shown with nothing ticked, then clicks (with the mouse, as a person would) the checkbox of each
--tick GROUP_ID in turn, then the Copy button, and writes the command text then shown to --out
(--screenshot: a picture of the snapshot section after that; --axe: then, as ticked, at 390 px and
at the width, no sideways scroll and no axe-core violation of impact serious or critical). It
prints one JSON line: the text before ticking ("before"), the command ("command"), the count line
("count"), what Copy said ("copy"), any console error or exception ("problems"), and what --axe
checked ("checked"). Exit 0 when every group was found and ticked and nothing failed, 1 otherwise, 2
when it cannot run.
"""
import base64, json, os, select, shutil, subprocess, sys, tempfile, time

OVERFLOW_WIDTHS = (390, 1024, 1400, 2560)
AXE_WIDTHS = (390, 1024, 1400)
HEIGHT = 900
BLOCKING = ("serious", "critical")


class BrowserError(Exception):
    pass


def find_browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium, one page, spoken to over fds 3 and 4 (NUL-terminated JSON)."""

    def __init__(self, binary, timeout=120):
        self.profile = tempfile.mkdtemp(prefix="report-browser-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():
            # Chromium reads commands on fd 3 and writes replies on fd 4.
            r, w = os.dup(to_child_r), os.dup(from_child_w)
            r, w = (os.dup(r) if r in (3, 4) else r), (os.dup(w) if w in (3, 4) else w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.timeout = timeout
        self.session = None

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_child, self.from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("timed out waiting for the browser")
            ready, _, _ = select.select([self.from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise BrowserError("the browser closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=True, timeout=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.to_child, data):]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, name, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for i, e in enumerate(self.events):
                if e["method"] == name:
                    del self.events[i]
                    return e
            m = self._read_message(deadline)
            if "method" in m:
                self.events.append(m)

    def open_page(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def load(self, url, width, height=HEIGHT):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        # (From a blank page, so a second load of the same page is a load, not a jump to an anchor.)
        for u in ("about:blank", url):
            self.events = [e for e in self.events if e["method"] != "Page.loadEventFired"]
            self.call("Page.navigate", {"url": u})
            self.wait_event("Page.loadEventFired")
        # Every picture, the lazy ones too: loaded (or failed) before anything is measured.
        self.evaluate("new Promise(function(done){var n=0;[].forEach.call(document.images,function(i){i.loading='eager';});"
                      "(function wait(){var left=[].filter.call(document.images,function(i){return !i.complete;}).length;"
                      "if(!left||++n>800)done(left);else setTimeout(wait,25);})();})")

    def evaluate(self, expression, timeout=None):
        r = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                      timeout=timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise BrowserError(f"script error: {d.get('exception', {}).get('description') or d.get('text')}")
        return r["result"].get("value")

    def key(self, key, code=None, keycode=0, shift=False):
        mods = 8 if shift else 0
        base = {"key": key, "code": code or key, "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode,
                "modifiers": mods}
        self.call("Input.dispatchKeyEvent", dict(base, type="keyDown", **({"text": "\r"} if key == "Enter" else {})))
        self.call("Input.dispatchKeyEvent", dict(base, type="keyUp"))

    def tab(self):
        self.key("Tab", keycode=9)

    def screenshot(self, path, width):
        height = self.evaluate("Math.min(document.documentElement.scrollHeight, 2400)")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def problems(self):
        """Console errors, uncaught exceptions and failed loads since the last call."""
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("uncaught: " + (d.get("exception", {}).get("description") or d.get("text", "")))
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                out.append(f"{entry.get('source')}: {entry.get('text')} {entry.get('url', '')}".strip())
        self.events = [e for e in self.events if e["method"] not in ("Runtime.exceptionThrown", "Runtime.consoleAPICalled", "Log.entryAdded")]
        return out


LAYOUT = """(function(){
  var d=document.documentElement;
  var worst=null;
  document.querySelectorAll('table.sheet img').forEach(function(i){
    if(!i.naturalWidth)return;
    var drawn=i.getBoundingClientRect().width, need=i.naturalWidth/2;
    var r={src:i.getAttribute('src'),drawn:drawn,at1x:need,ratio:drawn/need};
    if(!worst||r.ratio<worst.ratio||(r.ratio===worst.ratio&&r.drawn<worst.drawn))worst=r;});
  var small=[];
  document.querySelectorAll('table.sheet img').forEach(function(i){
    if(i.naturalWidth&&i.getBoundingClientRect().width+0.01<i.naturalWidth/2)small.push(i.getAttribute('src'));});
  var smallest=null;
  document.querySelectorAll('table.sheet img').forEach(function(i){
    var w=i.getBoundingClientRect().width;if(i.naturalWidth&&(!smallest||w<smallest.drawn))smallest={src:i.getAttribute('src'),drawn:w,at1x:i.naturalWidth/2};});
  var broken=[].filter.call(document.images,function(i){return i.getAttribute('src')&&i.complete&&i.naturalWidth===0;}).map(function(i){return i.getAttribute('src');});
  return {scrollWidth:d.scrollWidth,innerWidth:innerWidth,small:small.slice(0,5),smallCount:small.length,
          worst:worst,smallest:smallest,pictures:document.querySelectorAll('table.sheet img').length,broken:broken.slice(0,5)};
})()"""

AXE_RUN = """axe.run(document,{resultTypes:['violations'],rules:{'target-size':{enabled:true}}}).then(function(r){
  return r.violations.map(function(v){return {id:v.id,impact:v.impact,help:v.help,count:v.nodes.length,
    targets:v.nodes.slice(0,3).map(function(n){return n.target.join(' ');})};});})"""

VIEWER = """new Promise(function(done){
  var cell=document.querySelector('table.sheet button.cell-open');
  if(!cell){done({skipped:true});return;}
  cell.focus();
  done({id:cell.getAttribute('data-variant')});
})"""

VIEWER_STATE = """(function(){
  var d=document.getElementById('viewer');var a=document.activeElement;
  var img=d&&d.querySelector('img');
  return {open:!!(d&&d.open),focusInDialog:!!(d&&d.contains(a)),img:img?img.getAttribute('src'):null,
          imgLoaded:!!(img&&img.complete&&img.naturalWidth>0),pixelated:img?getComputedStyle(img).imageRendering:null,
          zooms:d?d.querySelectorAll('[data-zoom]').length:0,
          drawn:img?img.getBoundingClientRect().width:0,natural:img?img.naturalWidth:0,
          activeVariant:a&&a.getAttribute('data-variant')};
})()"""


def file_url(index):
    return "file://" + os.path.abspath(index)


def layout_failures(b, width):
    """The page's layout at `width`, loaded: what check fails on (sideways scroll, small or broken pictures)."""
    layout = b.evaluate(LAYOUT)
    failures = []
    if layout["scrollWidth"] > layout["innerWidth"]:
        failures.append(f"at {width} px the page scrolls sideways: scrollWidth {layout['scrollWidth']} > {layout['innerWidth']}")
    if layout["smallCount"]:
        failures.append(f"at {width} px {layout['smallCount']} contact-sheet pictures are drawn smaller than @1x, e.g. {layout['small'][0]}")
    if layout["broken"]:
        failures.append(f"at {width} px pictures do not load: {', '.join(layout['broken'])}")
    return layout, failures


def check(index, axe_path, shot, out_json, doms=(), also=None):
    binary = find_browser()
    if not binary:
        print("check-report: no chromium (run scripts/setup --browser)", file=sys.stderr)
        return 2
    axe = open(axe_path, encoding="utf-8").read()
    url = file_url(index)
    failures, summary = [], {"widths": {}}
    b = Browser(binary)
    try:
        b.open_page()
        for width in OVERFLOW_WIDTHS:
            b.load(url, width)
            layout, found = layout_failures(b, width)
            failures += found
            entry = {"scrollWidth": layout["scrollWidth"], "innerWidth": layout["innerWidth"],
                     "smallestCell": layout["smallest"], "worstCell": layout["worst"], "pictures": layout["pictures"]}
            for p in b.problems():
                failures.append(f"at {width} px the browser reported: {p}")
            if width in AXE_WIDTHS:
                b.evaluate(axe + "\n;true", timeout=60)
                violations = b.evaluate(AXE_RUN, timeout=600)
                entry["axe"] = violations
                for v in violations:
                    if v["impact"] in BLOCKING:
                        failures.append(f"at {width} px axe-core: {v['impact']} {v['id']} ({v['help']}) on {v['count']} "
                                        f"element(s), e.g. {', '.join(v['targets'])}")
                b.problems()  # axe's own console output is not the page's
            if width == 1400:
                entry["viewer"] = viewer(b, failures)
                if shot:
                    b.load(url, width)
                    b.screenshot(shot, width)
            summary["widths"][str(width)] = entry
        for query, out in doms:
            b.load(url + query, 1400)
            with open(out, "w", encoding="utf-8") as f:
                f.write(b.evaluate("document.documentElement.outerHTML"))
            for p in b.problems():
                failures.append(f"at 1400 px with {query!r} the browser reported: {p}")
        if also:
            for width in OVERFLOW_WIDTHS:
                b.load(file_url(also), width)
                found = layout_failures(b, width)[1] + [f"at {width} px the browser reported: {p}" for p in b.problems()]
                for f in found:
                    print(f"check-report: also {also}: {f}", file=sys.stderr)
    except BrowserError as e:
        print(f"check-report: {e}", file=sys.stderr)
        return 2
    finally:
        b.close()
    if out_json:
        with open(out_json, "w") as f:
            json.dump(summary, f, indent=1)
    for f in failures:
        print(f"check-report: {f}", file=sys.stderr)
    for w, e in summary["widths"].items():
        s = e["smallestCell"]
        axe_text = ""
        if "axe" in e:
            by = {}
            for v in e["axe"]:
                by[v["impact"]] = by.get(v["impact"], 0) + v["count"]
            axe_text = "; axe " + (", ".join(f"{k} {by[k]}" for k in ("critical", "serious", "moderate", "minor") if k in by) or "clean")
        k = e["worstCell"]
        cell = (f"; smallest picture {s['drawn']:.1f} CSS px wide (@1x {s['at1x']:.1f}); "
                f"least drawn {k['ratio'] * 100:.0f} % of @1x ({k['drawn']:.1f} of {k['at1x']:.1f}: {k['src']})") if s and k else ""
        print(f"check-report: {w} px: scrollWidth {e['scrollWidth']}{cell}{axe_text}")
    return 1 if failures else 0


def viewer(b, failures):
    """Opens the first cell's picture with the keyboard, checks the dialog, closes it with Escape."""
    start = b.evaluate(VIEWER)
    if start.get("skipped"):
        return {"skipped": True}
    b.key("Enter", keycode=13)
    b.evaluate("new Promise(function(r){setTimeout(r,100)})")
    opened = b.evaluate(VIEWER_STATE)
    if not opened["open"]:
        failures.append(f"Enter on the cell {start['id']} does not open the picture viewer")
        return opened
    if not opened["imgLoaded"]:
        failures.append(f"the viewer does not show the render of {start['id']} ({opened['img']})")
    if opened["pixelated"] != "pixelated":
        failures.append(f"the viewer's picture is not drawn with image-rendering: pixelated ({opened['pixelated']})")
    if not opened["focusInDialog"]:
        failures.append("the focus is not in the picture viewer when it opens")
    b.key("Escape", keycode=27)
    b.evaluate("new Promise(function(r){setTimeout(r,100)})")
    closed = b.evaluate(VIEWER_STATE)
    if closed["open"]:
        failures.append("Escape does not close the picture viewer")
    elif closed["activeVariant"] != start["id"]:
        failures.append(f"after Escape the focus is not back on the cell {start['id']}")
    return {"opened": opened, "closed": closed}


FOCUS = """(function(){var a=document.activeElement;var s=document.getElementById('findings');
  s=s&&s.closest('section');return {inFindings:!!(s&&a&&s.contains(a)&&a!==s),
  href:a&&a.getAttribute('href'),tag:a&&a.tagName};})()"""


def tabs(index, width=1400, limit=20000):
    """Tab presses from the top of the page until the focus is inside Findings: straight, and through
    a skip link to #findings when the page has one (the presses to reach it, Enter, the presses after)."""
    binary = find_browser()
    b = Browser(binary)
    result = {}
    try:
        b.open_page()
        def presses(done):
            """Tab until `done(focus)` holds (or `limit` presses): how many it took."""
            n = 0
            while n < limit:
                b.tab()
                n += 1
                if done(b.evaluate(FOCUS)):
                    break
            return n
        b.load(file_url(index), width)
        result["straight"] = presses(lambda f: f["inFindings"])
        b.load(file_url(index), width)
        result["toSkipLink"] = presses(lambda f: f["href"] == "#findings" or f["inFindings"])
        if b.evaluate(FOCUS)["href"] == "#findings":
            b.key("Enter", keycode=13)
            result["afterEnter"] = presses(lambda f: f["inFindings"])
    finally:
        b.close()
    print(json.dumps(result))
    return 0


REVIEW_STATE = """(function(){var c=document.getElementById('accept-command'),n=document.getElementById('review-count'),
  k=document.getElementById('copy-note');return {command:c?c.textContent:null,count:n?n.textContent:null,copy:k?k.textContent:null,
  ticked:[].map.call(document.querySelectorAll('input[data-pick]:checked'),function(i){return i.getAttribute('data-pick');})};})()"""


def click(b, selector):
    """Scrolls the element into the middle of the window and clicks its centre with the mouse; False when absent."""
    box = b.evaluate("(function(){var e=document.querySelector(%s);if(!e)return null;e.scrollIntoView({block:'center'});"
                     "var r=e.getBoundingClientRect();return {x:r.left+r.width/2,y:r.top+r.height/2};})()" % json.dumps(selector))
    if not box:
        return False
    for kind in ("mousePressed", "mouseReleased"):
        b.call("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"], "button": "left", "clickCount": 1})
    b.evaluate("new Promise(function(r){setTimeout(r,50)})")
    return True


def review(index, ticks, out, width=1400, shot=None, axe_path=None):
    """Ticks groups in the page's review box by clicking their checkboxes; writes the command shown."""
    binary = find_browser()
    if not binary:
        print("report-browser: no chromium (run scripts/setup --browser)", file=sys.stderr)
        return 2
    b = Browser(binary)
    failures, checked = [], []
    try:
        b.open_page()
        b.load(file_url(index), width)
        before = b.evaluate(REVIEW_STATE)
        for g in ticks:
            if not click(b, "input[data-pick=%s]" % json.dumps(g)):
                failures.append(f"no checkbox for group {g}")
        ticked = b.evaluate(REVIEW_STATE)
        if sorted(ticked["ticked"]) != sorted(ticks):
            failures.append(f"ticked {ticked['ticked']}, wanted {ticks}")
        if ticks and not click(b, "[data-copy]"):
            failures.append("no Copy button")
        after = b.evaluate(REVIEW_STATE)
        problems = b.problems()
        failures += [f"the browser reported: {p}" for p in problems]
        if axe_path:
            # The page as ticked, at a phone's width and a desktop's: no sideways scroll, axe-core clean.
            axe = open(axe_path, encoding="utf-8").read()
            b.evaluate(axe + "\n;true", timeout=60)
            for w in (390, width):
                b.call("Emulation.setDeviceMetricsOverride", {"width": w, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
                b.evaluate("new Promise(function(r){setTimeout(r,50)})")
                layout = b.evaluate(LAYOUT)
                if layout["scrollWidth"] > layout["innerWidth"]:
                    failures.append(f"at {w} px the page scrolls sideways: scrollWidth {layout['scrollWidth']} > {layout['innerWidth']}")
                for v in b.evaluate(AXE_RUN, timeout=600):
                    (failures if v["impact"] in BLOCKING else []).append(
                        f"at {w} px axe-core: {v['impact']} {v['id']} ({v['help']}) on {v['count']} element(s), e.g. {', '.join(v['targets'])}")
                    checked.append(f"{w} px: {v['impact']} {v['id']}")
            b.problems()  # axe's own console output is not the page's
            checked.append("axe-core ran at 390 and %d px" % width)
        if shot:
            # The snapshot section, from its heading down (at most 3000 px).
            top = b.evaluate("(function(){var e=document.getElementById('snapshots');window.scrollTo(0,0);"
                             "return e?e.getBoundingClientRect().top+scrollY:0;})()")
            height = b.evaluate("document.documentElement.scrollHeight") - top
            data = b.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                     "clip": {"x": 0, "y": top, "width": width, "height": min(height, 3000), "scale": 1}})["data"]
            with open(shot, "wb") as f:
                f.write(base64.b64decode(data))
    except BrowserError as e:
        print(f"report-browser: {e}", file=sys.stderr)
        return 2
    finally:
        b.close()
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(ticked["command"] or "")
    print(json.dumps({"before": before["command"], "command": ticked["command"], "count": ticked["count"],
                      "copy": after["copy"], "problems": problems, "checked": checked}))
    for f in failures:
        print(f"report-browser: {f}", file=sys.stderr)
    return 1 if failures else 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "tabs", "review"):
        print(__doc__, file=sys.stderr)
        return 2
    index = argv[2]
    if argv[1] == "tabs":
        return tabs(index)
    if argv[1] == "review":
        ticks, opts, rest = [], {}, argv[3:]
        while len(rest) >= 2 and rest[0] in ("--tick", "--out", "--width", "--screenshot", "--axe"):
            if rest[0] == "--tick":
                ticks.append(rest[1])
            else:
                opts[rest[0]] = rest[1]
            rest = rest[2:]
        if rest:
            print(f"report-browser: review: unexpected {rest[0]!r}", file=sys.stderr)
            return 2
        return review(index, ticks, opts.get("--out"), int(opts.get("--width", "1400")), opts.get("--screenshot"), opts.get("--axe"))
    opts, doms, rest = {}, [], argv[3:]
    while rest:
        if rest[0] == "--dom" and len(rest) >= 3:
            doms.append((rest[1], rest[2]))
            rest = rest[3:]
        elif len(rest) >= 2:
            opts[rest[0]] = rest[1]
            rest = rest[2:]
        else:
            print(f"check-report: {rest[0]} needs a value", file=sys.stderr)
            return 2
    if "--axe" not in opts:
        print("check-report: --axe AXE.min.js is required", file=sys.stderr)
        return 2
    return check(index, opts["--axe"], opts.get("--screenshot"), opts.get("--json"), doms, opts.get("--also"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
