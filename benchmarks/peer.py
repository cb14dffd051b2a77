"""ksafe's parse next to the peer viewer's parser, in the same run (``parse.py --peer``).

The peer is ``convertTopoToDot`` from the kafka-streams-viz web page (zz85/kafka-streams-viz
``main.js``): it splits the text into lines and runs a few regexes per line to write DOT text.
Its file is read where the user points at it, never copied here. ``main.js`` is a browser
script: run in a fresh ``vm`` context, its function declarations are made before its first
statement reaches for the page (``window``) and stops; the driver below then calls the
function. Node times its calls, Python times its own: each in CPU time of its process, in rounds
of at least a few milliseconds, the two runtimes taking turns round by round so that both see
the same machine; the best round of each counts. Node runs with ``--single-threaded``: V8's
background compiler and collector threads would otherwise keep working while Python's round
runs, on the same cores (the JIT has compiled the function before timing starts).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import timeit
from pathlib import Path

from linter.topology.parse import parse

# Reads one JSON request per line: {"texts": [...]} once, then {"text": i, "number": n}
# (answers the CPU seconds of n calls) or {"text": i, "calibrate": true} (answers the number
# of calls that takes 2 ms or more, after warming the JIT up on that text).
_DRIVER = r"""
const vm = require("vm"), fs = require("fs"), readline = require("readline");
const context = vm.createContext({});
try { vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), context); } catch (e) {}
const convert = context.convertTopoToDot;
if (typeof convert !== "function") {
  console.error(`no convertTopoToDot function in ${process.argv[1]}`);
  process.exit(2);
}
function cpu(text, number) {
  const start = process.cpuUsage();
  let length = 0;
  for (let i = 0; i < number; i++) length += convert(text).length;
  const used = process.cpuUsage(start);
  if (length === 0) throw new Error("no output");
  return (used.user + used.system) / 1e6;
}
let texts = [];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  let answer = null;
  if (request.texts) {
    texts = request.texts;
  } else if (request.calibrate) {
    let number = 1;
    for (let i = 0; i < 20; i++) cpu(texts[request.text], 1);
    while (cpu(texts[request.text], number) < 0.002) number *= 2;
    answer = number;
  } else {
    answer = cpu(texts[request.text], request.number);
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
"""


class _Node:
    """The driver in a node process of its own."""

    def __init__(self, main_js: Path, texts: list[str]) -> None:
        node = shutil.which("node")
        if node is None:
            sys.exit("--peer needs node on the PATH")
        self.process = subprocess.Popen(
            [node, "--single-threaded", "-e", _DRIVER, str(main_js)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.ask({"texts": texts})

    def ask(self, request: dict[str, object]) -> float:
        """Send one request, wait for its answer (0 for ``texts``)."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"the peer stopped (exit code {self.process.wait()})")
        return float(json.loads(line) or 0)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def _calls_per_round(timer: timeit.Timer) -> int:
    number = 1
    while timer.timeit(number) < 0.002:
        number *= 2
    return number


def versus_peer(main_js: Path, inputs: dict[str, str], repeat: int) -> None:
    """Print ms per call of ksafe's parse and of the peer on each input, and their ratio."""
    if not main_js.is_file():
        sys.exit(f"no peer at {main_js}")
    texts = list(inputs.values())
    peer = _Node(main_js, texts)
    try:
        print(f"against the peer ({main_js}: convertTopoToDot in node), best of {repeat} rounds")
        for index, (label, text) in enumerate(inputs.items()):
            timer = timeit.Timer(
                lambda text=text: parse(text), setup="gc.enable()", timer=time.process_time
            )
            ours_number = _calls_per_round(timer)
            peer_number = int(peer.ask({"text": index, "calibrate": True}))
            ours = theirs = float("inf")
            for _ in range(repeat):
                ours = min(ours, timer.timeit(ours_number) / ours_number)
                theirs = min(theirs, peer.ask({"text": index, "number": peer_number}) / peer_number)
            verdict = "faster" if ours < theirs else "slower"
            print(
                f"  {label:<20} ksafe parse {ours * 1e3:8.3f} ms   peer {theirs * 1e3:8.3f} ms"
                f"   ksafe / peer {ours / theirs:5.2f} ({verdict})"
            )
    finally:
        peer.close()
