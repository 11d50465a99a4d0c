#!/usr/bin/env python3
"""Checks a `quintet replay` page in headless Chromium, as a person uses it.

Loads the page from a file, presses keys (real key events through the
DevTools protocol, over --remote-debugging-pipe: no network, no packages
beyond Python's standard library), clicks buttons and moves, and checks
after each step that exactly the right board layer shows, the counter and
the highlighted move agree, no script error happened and nothing was
fetched from a network. Saves a screenshot.

    replay_check.py PAGE.html --plies N [--scores] [--screenshot OUT.png]

Exit status: 0 all checks passed, 1 a check failed, 3 Chromium is missing
(the message says so; the caller decides whether that skips or fails).
"""

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = 30.0


class Browser:
    """Chromium speaking the DevTools protocol on fds 3 (in) and 4 (out)."""

    def __init__(self, chromium):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="quintet-chromium-")

        # The shell puts the pipe's ends on the fds Chromium expects.
        plumbing = f'exec "$0" "$@" 3<&{to_child_r} 4>&{from_child_w}'
        self.proc = subprocess.Popen(
            [
                "sh",
                "-c",
                plumbing,
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile,
                "--window-size=1200,900",
                "about:blank",
            ],
            pass_fds=(to_child_r, from_child_w),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_child, json.dumps(message).encode() + b"\0")
        wanted = self.next_id
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            reply = self.read()
            if reply.get("id") == wanted:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise RuntimeError(f"{method}: no reply in {TIMEOUT} s")

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            for event in self.events:
                if event.get("method") == method:
                    self.events.remove(event)
                    return event
            self.events.append(self.read())
        raise RuntimeError(f"no {method} in {TIMEOUT} s")

    def evaluate(self, expression):
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, name, code):
        for kind in ("rawKeyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {
                    "type": kind,
                    "key": name,
                    "code": name,
                    "windowsVirtualKeyCode": code,
                    "nativeVirtualKeyCode": code,
                },
            )

    def click(self, selector):
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1},
            )

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "Home": 36, "End": 35}

STATE = """(() => ({
  shown: Array.from(document.querySelectorAll('#board g.ply'))
    .filter(g => g.style.display !== 'none').map(g => Number(g.dataset.ply)),
  counter: document.getElementById('counter').textContent,
  current: Array.from(document.querySelectorAll('#moves .mv.current'))
    .map(b => Number(b.dataset.ply)),
  cursor: document.getElementById('cursor') ?
    Number(document.getElementById('cursor').getAttribute('x1')) : null,
}))()"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--plies", type=int, required=True)
    parser.add_argument("--scores", action="store_true")
    parser.add_argument("--screenshot")
    args = parser.parse_args()

    chromium = os.environ.get("QUINTET_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("replay_check: chromium not found (apt-get install -y chromium)")
        return 3

    browser = Browser(chromium)
    failures = []
    steps = 0

    def expect(ply, what):
        nonlocal steps
        steps += 1
        state = browser.evaluate(STATE)
        want = f"ply {ply} / {args.plies}"
        if state["shown"] != [ply] or state["counter"] != want or state["current"] != [ply]:
            failures.append(f"after {what}: expected ply {ply}, page shows {state}")
        return state

    try:
        target = browser.send(
            "Target.createTarget", {"url": "about:blank"}, session=False
        )["targetId"]
        browser.session = browser.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, session=False
        )["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            browser.send(f"{domain}.enable")
        url = "file://" + os.path.abspath(args.page)
        browser.send("Page.navigate", {"url": url})
        browser.wait_event("Page.loadEventFired")

        expect(0, "loading")
        browser.key("ArrowRight", KEYS["ArrowRight"])
        expect(1, "ArrowRight")
        browser.key("ArrowRight", KEYS["ArrowRight"])
        browser.key("ArrowRight", KEYS["ArrowRight"])
        first = expect(3, "ArrowRight x3")
        browser.key("ArrowLeft", KEYS["ArrowLeft"])
        expect(2, "ArrowLeft")
        browser.key("End", KEYS["End"])
        last = expect(args.plies, "End")
        browser.key("ArrowRight", KEYS["ArrowRight"])
        expect(args.plies, "ArrowRight at the end")
        browser.key("Home", KEYS["Home"])
        expect(0, "Home")
        browser.key("ArrowLeft", KEYS["ArrowLeft"])
        expect(0, "ArrowLeft at the start")
        browser.click("#next")
        expect(1, "clicking next")
        browser.click("#last")
        expect(args.plies, "clicking last")
        browser.click("#prev")
        expect(args.plies - 1, "clicking previous")
        browser.click("#first")
        expect(0, "clicking first")
        middle = args.plies // 2
        browser.click(f'#moves .mv[data-ply="{middle}"]')
        expect(middle, f"clicking move {middle}")
        if args.scores:
            if first["cursor"] is None or not last["cursor"] > first["cursor"]:
                failures.append(f"the graph's cursor does not follow: {first} {last}")
            point = browser.evaluate(
                "Number(document.querySelector('#scores .pt').dataset.ply)"
            )
            browser.click("#scores .pt")
            expect(point, "clicking the graph's first point")
        elif first["cursor"] is not None:
            failures.append("a score graph without scores")

        # Drain what arrived meanwhile: script errors, network requests.
        browser.evaluate("1")
        for event in browser.events:
            method = event.get("method")
            if method == "Runtime.exceptionThrown":
                failures.append(f"script error: {event['params']['exceptionDetails']}")
            if method == "Network.requestWillBeSent":
                request = event["params"]["request"]["url"]
                if not request.startswith(("file:", "data:", "about:")):
                    failures.append(f"the page fetched {request}")

        if args.screenshot:
            browser.click(f'#moves .mv[data-ply="{middle}"]')
            shot = browser.send("Page.captureScreenshot", {"format": "png"})
            with open(args.screenshot, "wb") as out:
                out.write(base64.b64decode(shot["data"]))
    except Exception as e:  # a protocol failure is a failed check
        failures.append(f"{type(e).__name__}: {e}")
    finally:
        browser.close()

    for failure in failures:
        print("replay_check: FAIL:", failure)
    if failures:
        return 1
    print(f"replay_check: ok, {steps} steps over {args.plies} plies")
    return 0


if __name__ == "__main__":
    sys.exit(main())
