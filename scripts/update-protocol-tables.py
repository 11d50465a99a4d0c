#!/usr/bin/env python3
"""Rewrites the option and searcher tables of protocol.md from the engine's
own tables (`quintet options`), in place. tests/docs.rs checks them."""
import re
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/quintet"
tables = subprocess.run([binary, "options"], capture_output=True, text=True, check=True).stdout
options, searchers = tables.split("\n\n", 1)
path = "protocol.md"
text = open(path).read()
text = re.sub(r"\| option \| type \| default \| range or values \| what it sets \|\n(\|.*\n)+", options.rstrip("\n") + "\n", text, count=1)
text = re.sub(r"\| `Search` value \| searcher \|\n(\|.*\n)+", searchers.rstrip("\n") + "\n", text, count=1)
open(path, "w").write(text)
