"""Decisions per second of the Python ``model:auto`` on the package's fixture views, through the protocol's handler
(``handle_request``: parse and check the view, encode, run the network): the reference js/bench/bench.js prints
beside the package's figures. Run from the repository root: ``python js/bench/python_decisions.py ROUNDS``."""

import gzip
import json
import sys
import time
from pathlib import Path

from agents.base import make_bot
from agents.protocol import handle_request

views = [d["view"] for t in json.loads(gzip.decompress(Path("js/test/fixtures.json.gz").read_bytes()))["tables"]
         for d in t["decisions"]]
bot = make_bot("model:auto")
for view in views:  # warm up: every model loaded and run once
    handle_request(bot, view)
rounds = int(sys.argv[1])
start = time.perf_counter()
for _ in range(rounds):
    for view in views:
        assert handle_request(bot, view).ok
print(json.dumps({"decisions": rounds * len(views), "seconds": time.perf_counter() - start}))
